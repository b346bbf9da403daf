package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The edits of members: an exemplar that names a method or field ({@code getRef()}) names the one this diff changes,
 * read from the patch's declarations.
 */
final class MemberEdit {
    private MemberEdit() {}

    /** A method declared on a changed line: modifiers or a return type, its name, its parameters, an opening brace. */
    private static final Pattern DECLARATION = Pattern.compile("^[+-]\\s*(?:@\\w+\\s+)*(?:(?:public|protected|private|"
            + "static|final|abstract|synchronized|default|native)\\s+)*(?:<[^>]+>\\s+)?[\\w.$<>\\[\\],?]+(?:<[^>]*>)?"
            + "(?:\\[])*\\s+([a-zA-Z_$][\\w$]*)\\s*\\(([^)]*)\\)\\s*(?:throws\\s+[\\w.,\\s]+)?\\{?\\s*$");

    /** A member named with its parameters in a subject: {@code NumberUtilsTest.testCreateDouble()}. */
    private static final Pattern MEMBER_REFERENCE =
            Pattern.compile("(?<![\\w.])((?:[A-Za-z_]\\w*\\.)*)([A-Za-z_]\\w*)\\(([^()]*)\\)");

    private static final java.util.Set<String> NOT_METHODS = java.util.Set.of("if", "for", "while", "switch", "catch",
            "return", "new", "else", "synchronized", "throw");

    /** A method a diff changes: the class its file is named after, and the member as a subject writes it. */
    record Member(String owner, String text) {
    }

    /**
     * The one method this patch declares on its changed lines, as a subject names it: {@code fit(int)} for
     * {@code public int fit(final int element) {}} (a changed signature as it is now); null when it declares none or
     * several (which one a subject should name would be a guess).
     */
    static Member changedMember(String patch) {
        Member found = null;
        String owner = "";
        for (String line : patch.split("\n")) {
            if (line.startsWith("+++ ")) {
                String path = line.substring(4).trim();
                String name = path.substring(path.lastIndexOf('/') + 1);
                owner = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
                continue;
            }
            if (line.startsWith("---") || (!line.startsWith("+") && !line.startsWith("-")) || line.indexOf('(') < 0
                    || line.endsWith(";")) {
                continue; // a declaration is a changed line with a parenthesis that is no statement
            }
            Matcher m = DECLARATION.matcher(line);
            if (!m.matches() || NOT_METHODS.contains(m.group(1)) || line.contains("=")) {
                continue;
            }
            StringBuilder types = new StringBuilder();
            for (String param : m.group(2).split(",")) {
                String p = param.trim().replaceAll("^(?:final\\s+|@\\w+\\s+)+", "");
                int space = p.lastIndexOf(' ');
                if (space > 0) {
                    types.append(types.length() == 0 ? "" : ", ").append(p.substring(0, space).trim());
                }
            }
            Member member = new Member(owner, m.group(1) + "(" + types + ")");
            if (found != null && !found.text().startsWith(m.group(1) + "(")) {
                return null;
            }
            if (found == null || line.startsWith("+")) {
                found = member; // a changed signature: as it is now
            }
        }
        return found;
    }

    /** Whether the description names a member with its parameters ({@link #editMember} may change it). */
    static boolean namesMember(String description) {
        return description.indexOf('(') >= 0 && MEMBER_REFERENCE.matcher(description).find();
    }

    /**
     * The exemplar's one member reference ({@code NumberUtilsTest.testCreateDouble()}) names this diff's changed
     * member instead ({@code NumberUtilsTest.testCreateLongFailure()}), when the exemplar's member is not in this
     * patch and this diff changes exactly one ({@link #changedMember}); a qualifier becomes the class the member is
     * declared in. Otherwise the description stays as it is (and a member it names that this diff lacks makes it
     * unfaithful).
     */
    static String editMember(String description, Member ourMember, String patch) {
        if (ourMember == null) {
            return description;
        }
        Matcher m = MEMBER_REFERENCE.matcher(description);
        if (!m.find()) {
            return description;
        }
        int start = m.start();
        int end = m.end();
        String qualifier = m.group(1);
        String name = m.group(2);
        if (m.find() || patch.contains(name + "(")) {
            return description; // several references, or one this diff has itself
        }
        if (!qualifier.isEmpty()) {
            String[] parts = qualifier.substring(0, qualifier.length() - 1).split("\\.");
            if (!FileNameEdit.shape(parts[parts.length - 1]).equals("Aa") || !FileNameEdit.shape(ourMember.owner()).equals("Aa")) {
                return description;
            }
            parts[parts.length - 1] = ourMember.owner();
            qualifier = String.join(".", parts) + ".";
        }
        return description.substring(0, start) + qualifier + ourMember.text() + description.substring(end);
    }
}
