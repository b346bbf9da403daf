package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Changes the exemplar's description so that it speaks of this diff. In: the exemplar's subject and what the two
 * diffs changed (file names, new versions). Out: the same subject whose description has the exemplar's file names
 * replaced by this diff's main file ({@link FileNameEdit}), its version by this diff's ({@link VersionEdit}), and
 * its first word in the imperative mood ({@link MoodEdit}): with {@code RefUpdate} changed, {@code "Fixed race in
 * PackWriter"} becomes {@code "Fix race in RefUpdate"}. Its form (tags, type, area) is left to {@link StyleApplier}.
 * The other edits an exemplar gets, each a kind of its own: {@link DateEdit}, {@link CarriedNameEdit},
 * {@link MemberEdit}.
 */
public final class SubjectEditor {
    private SubjectEditor() {}

    /**
     * The exemplar's subject with its description edited for this diff: file names, version, imperative mood, and
     * without the exemplar's pull-request references {@code (#123)}, which this change is not.
     */
    static Subject adapt(Subject exemplar, List<String> theirFiles, List<String> ourFiles, List<String> newVersions) {
        return adapt(exemplar, theirFiles, ourFiles, null, List.of(), newVersions);
    }

    /**
     * {@link #adapt}, with the class under test when this diff's main file is its test
     * ({@link FileNameEdit#classUnderTest}), and the versions this diff moves away from, for a bump's {@code from 1.2
     * to 1.3}.
     */
    static Subject adapt(Subject exemplar, List<String> theirFiles, List<String> ourFiles, String underTest,
                         List<String> oldVersions, List<String> newVersions) {
        return adapt(exemplar, theirFiles, ourFiles, underTest, oldVersions, newVersions, false);
    }

    /** {@link #adapt}, in the past tense where {@code past} ({@link MoodEdit#inMood}). */
    static Subject adapt(Subject exemplar, List<String> theirFiles, List<String> ourFiles, String underTest,
                         List<String> oldVersions, List<String> newVersions, boolean past) {
        String d = FileNameEdit.edit(MoodEdit.withoutDoubledWords(
                Faithfulness.withoutPullRequests(exemplar.description())), theirFiles, ourFiles, underTest);
        String pair = VersionEdit.editVersionPair(d, oldVersions, newVersions);
        String edited = pair != null ? pair : VersionEdit.fileVersion(d, theirFiles, ourFiles);
        if (edited == null && VersionEdit.namesFileVersion(d, theirFiles)) {
            // "Add 4.38 target platform" names the exemplar's jgit-4.38.target: the version this diff moves to is
            // written only where one of its files is named with it (jgit-4.23.target beside jgit-4.24.target), not
            // hamcrest's 3.0 ("Add 3.0 target platform")
            String fresh = VersionEdit.editVersion(d, newVersions);
            String version = VersionEdit.soleVersion(fresh);
            edited = version != null && ourFiles.stream().anyMatch(f -> f.contains(version)) ? fresh : d;
        }
        return exemplar.withDescription(MoodEdit.inMood(
                edited != null ? edited : VersionEdit.editVersion(d, newVersions), past));
    }

    /**
     * Whether every match of {@code names} in the description (its first group) is on a line the patch adds, its
     * {@code +++} file headers too where {@code headers}.
     */
    static boolean onAddedLines(String description, Pattern names, String patch, boolean headers) {
        Matcher m = names.matcher(description);
        String[] lines = null; // split only when the description names one
        while (m.find()) {
            if (lines == null) {
                lines = patch.split("\n", -1);
            }
            boolean found = false;
            for (String l : lines) {
                if (l.startsWith("+") && (headers || !l.startsWith("+++")) && l.contains(m.group(1))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }
}
