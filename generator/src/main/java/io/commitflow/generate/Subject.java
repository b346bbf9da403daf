package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A commit subject taken apart into the conventions repositories use:
 * {@code [FLINK-1234][runtime] Fix …}, {@code KAFKA-123: Fix …}, {@code fix(core)!: handle …},
 * {@code RevWalk: Free flags …}, and GitHub's {@code (#1234)} suffix.
 *
 * @param tags        bracket tags in front, tickets included ({@code [FLINK-1234]}, {@code [hotfix]})
 * @param ticket      a ticket id ({@code FLINK-1234}), from a tag or a plain prefix, or empty
 * @param plainTicket the ticket was a plain prefix ({@code KAFKA-123: }) rather than a tag
 * @param type        conventional-commit type, or empty
 * @param scope       conventional-commit scope, or empty
 * @param breaking    conventional-commit {@code !}
 * @param area        an {@code area: } prefix that is no conventional type, or empty
 * @param description the rest, without a {@code (#123)} suffix
 * @param pullRequest the subject ended in {@code (#123)}
 */
public record Subject(List<String> tags, String ticket, boolean plainTicket, String type, String scope, boolean breaking,
                      String area, String description, boolean pullRequest) {

    private static final Pattern TAG = Pattern.compile("^\\[([^\\]\\[]{1,40})\\]\\s*");
    private static final Pattern TICKET = Pattern.compile("[A-Z][A-Z0-9_]+-\\d+");
    private static final Pattern PLAIN_TICKET = Pattern.compile("^([A-Z][A-Z0-9_]+-\\d+)(?::\\s*|\\s+)");
    private static final Pattern CONVENTIONAL = Pattern.compile("^([a-z]{2,12})(?:\\(([^()]{1,40})\\))?(!)?:\\s+");
    private static final Pattern AREA = Pattern.compile("^([^\\s:\\[\\]()]{1,40}):\\s+");
    private static final Pattern PR = Pattern.compile("\\s*\\(#\\d+\\)\\s*$");
    public static final List<String> TYPES = List.of("feat", "fix", "docs", "style", "refactor", "perf", "test", "build",
            "ci", "chore", "revert", "release", "deps", "types", "wip", "dx", "workflow");

    public static Subject parse(String subject) {
        String s = subject.strip();
        List<String> tags = new ArrayList<>();
        String ticket = "";
        boolean plain = false;
        Matcher m;
        while ((m = TAG.matcher(s)).find()) {
            tags.add(m.group(1));
            if (ticket.isEmpty() && TICKET.matcher(m.group(1)).matches()) {
                ticket = m.group(1);
            }
            s = s.substring(m.end());
        }
        if (tags.isEmpty() && (m = PLAIN_TICKET.matcher(s)).find()) {
            ticket = m.group(1);
            plain = true;
            s = s.substring(m.end());
        }
        String type = "";
        String scope = "";
        boolean breaking = false;
        String area = "";
        if ((m = CONVENTIONAL.matcher(s)).find() && TYPES.contains(m.group(1))) {
            type = m.group(1);
            scope = m.group(2) == null ? "" : m.group(2);
            breaking = m.group(3) != null;
            s = s.substring(m.end());
        } else if ((m = AREA.matcher(s)).find() && !m.group(1).contains("://")) {
            area = m.group(1);
            s = s.substring(m.end());
        }
        boolean pr = false;
        if ((m = PR.matcher(s)).find()) {
            pr = true;
            s = s.substring(0, m.start());
        }
        return new Subject(List.copyOf(tags), ticket, plain, type, scope, breaking, area, s.strip(), pr);
    }

    /** The first line of a message. */
    public static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }

    /** Invisible format characters (zero-width spaces, joiners) that a copied subject should not carry. */
    private static final java.util.regex.Pattern FORMAT_CHARACTERS = java.util.regex.Pattern.compile("\\p{Cf}");

    /** How long a first line must be to be taken for one wrapped in the middle of a sentence. */
    static final int WRAPPED = 50;

    /**
     * The subject to learn from a message: its first line, or, where that line was wrapped in the middle of a
     * sentence (long, no closing punctuation, the next line goes on in words, not a list or a trailer), the first two
     * lines joined, so that an exemplar never ends on {@code … if a class name length is}; invisible format
     * characters (zero-width spaces) removed.
     */
    public static String headline(String message) {
        String first = FORMAT_CHARACTERS.matcher(firstLine(message)).replaceAll("");
        if (first.length() < WRAPPED || first.matches(".*[.!?:;)\\]\"']$")) {
            return first;
        }
        String[] lines = message.strip().split("\\R", 3);
        if (lines.length < 2) {
            return first;
        }
        String next = FORMAT_CHARACTERS.matcher(lines[1].strip()).replaceAll("");
        if (next.isEmpty() || !Character.isLetterOrDigit(next.codePointAt(0)) || next.matches("[\\w-]+: .*")) {
            return first;
        }
        return first + " " + next;
    }

    /** Writes a subject back from its parts (no pull-request suffix: that number is the server's to give). */
    public String render() {
        StringBuilder b = new StringBuilder();
        for (String t : tags) {
            b.append('[').append(t).append(']');
        }
        if (!tags.isEmpty()) {
            b.append(' ');
        }
        if (plainTicket && !ticket.isEmpty()) {
            b.append(ticket).append(": ");
        }
        if (!type.isEmpty()) {
            b.append(type);
            if (!scope.isEmpty()) {
                b.append('(').append(scope).append(')');
            }
            b.append(breaking ? "!: " : ": ");
        } else if (!area.isEmpty()) {
            b.append(area).append(": ");
        }
        return b.append(description).toString().strip();
    }

    /** This subject with {@code scope} as its conventional scope. */
    public Subject withScope(String scope) {
        return new Subject(tags, ticket, plainTicket, type, scope, breaking, area, description, pullRequest);
    }

    /** This subject with {@code area} as its {@code area: } prefix (empty: none). */
    public Subject withArea(String area) {
        return new Subject(tags, ticket, plainTicket, type, scope, breaking, area, description, pullRequest);
    }

    public Subject withDescription(String d) {
        return new Subject(tags, ticket, plainTicket, type, scope, breaking, area, d, pullRequest);
    }

    /** This subject with {@code tags} as its bracket tags and {@code ticket} as its ticket (written plain or not). */
    public Subject withTags(List<String> tags, String ticket, boolean plainTicket) {
        return new Subject(List.copyOf(tags), ticket, plainTicket, type, scope, breaking, area, description,
                pullRequest);
    }
}
