package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.patch.FormatError;
import org.eclipse.jgit.patch.Patch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the inline patch of an event (git's unified diff format, as {@code git show} or {@code git
 * format-patch} write it) into a {@link DiffedCommit}, with the same budget as mirror diffs.
 */
public final class InlinePatch {
    private final DiffBudget budget;

    public InlinePatch(DiffBudget budget) {
        this.budget = budget;
    }

    public DiffedCommit parse(CommitEvent commit) throws InvalidEventException {
        byte[] bytes = commit.patch().getBytes(StandardCharsets.UTF_8);
        Patch patch = new Patch();
        try {
            patch.parse(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
            throw new InvalidEventException(Reason.BAD_PATCH, "cannot read the inline patch: " + e.getMessage());
        }
        for (FormatError error : patch.getErrors()) {
            if (error.getSeverity() == FormatError.Severity.ERROR) {
                throw new InvalidEventException(Reason.BAD_PATCH,
                        "the inline patch is malformed at byte " + error.getOffset() + ": " + error.getMessage());
            }
        }
        // a bare "diff --git" header with nothing after it (no hunk, no mode, no rename, not binary) is no change
        List<? extends FileHeader> headers = patch.getFiles().stream().filter(InlinePatch::changes).toList();
        if (headers.isEmpty()) {
            throw new InvalidEventException(Reason.BAD_PATCH, "the inline patch changes no file");
        }
        int shown = Math.min(headers.size(), budget.maxFiles());
        List<FileChange> files = new ArrayList<>(shown);
        for (FileHeader h : headers.subList(0, shown)) {
            files.add(FileChange.of(h));
        }
        PatchText text = new PatchText(budget.maxBytes(), budget.maxLines());
        text.write(bytes, 0, bytes.length);
        PatchId id = new PatchId();
        id.write(bytes, 0, bytes.length);
        return DiffedCommit.of(commit, files, headers.size(), text.text(),
                budget.truncation(headers.size(), text), "inline", id.hex());
    }

    /**
     * Whether a file header describes a change: an add, delete, rename or copy, hunks, a mode change, or a binary
     * change that says so ("Binary files … differ", "GIT binary patch"). JGit calls a header with nothing after it
     * binary; git never writes one.
     */
    private static boolean changes(FileHeader h) {
        if (h.getChangeType() != org.eclipse.jgit.diff.DiffEntry.ChangeType.MODIFY || !h.getHunks().isEmpty()
                || !java.util.Objects.equals(h.getOldMode(), h.getNewMode())) {
            return true;
        }
        String text = new String(h.getBuffer(), h.getStartOffset(), h.getEndOffset() - h.getStartOffset(),
                StandardCharsets.UTF_8);
        return text.contains("\nBinary files ") || text.contains("\nGIT binary patch");
    }
}
