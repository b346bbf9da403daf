package io.commitflow.generate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ticket a diff names as its own: Apache projects cite the issue a change fixes where its test says what it
 * tests ({@code Test case for <a href="…/CALCITE-7592">[CALCITE-7592] Add expression support for FETCH</a>}). Where
 * the history writes tickets ({@link StyleApplier} leaves the number open, {@code [CALCITE-XXXXX]}), the one ticket of
 * the history's key that the diff adds, and that no line it removes or keeps names, is this change's: the diff's own
 * number, never a neighbour's.
 */
final class OwnTicket {
    private OwnTicket() {}

    /**
     * The one ticket of {@code key} ({@code CALCITE-}) that the patch's added lines name and none of its other lines
     * do; null when there is none, or several (which one is the change's would be a guess).
     */
    static String in(String patch, String key) {
        if (patch == null || key.isEmpty() || !patch.contains(key)) {
            return null;
        }
        String found = null;
        Set<String> old = new HashSet<>();
        for (int from = 0; from < patch.length(); ) {
            int end = DiffTokens.lineEnd(patch, from);
            char first = patch.charAt(from);
            boolean header = patch.startsWith("+++ ", from) || patch.startsWith("--- ", from);
            if (!header && (first == '+' || first == '-' || first == ' ')) {
                for (String id : ids(patch, from, end, key)) {
                    if (first != '+') {
                        old.add(id);
                    } else if (found == null) {
                        found = id;
                    } else if (!found.equals(id)) {
                        return null;
                    }
                }
            }
            from = end + 1;
        }
        return found == null || old.contains(found) ? null : found;
    }

    /** Markup in a ticket's title: HTML tags, and the link's closing one that starts it in {@code [X-1]</a>; Title}. */
    private static final java.util.regex.Pattern MARKUP = java.util.regex.Pattern.compile("<[^>]*>");
    /** Where a title stops: its link's end, its comment's end, or the end of its first sentence. */
    private static final java.util.regex.Pattern TITLE_END = java.util.regex.Pattern.compile("</a>|\\*/|\\.(?:\\s|$)");
    /** How many lines a title may continue on after its ticket's. */
    private static final int TITLE_LINES = 4;

    /**
     * The title that follows {@code ticket} in brackets on the first added line that names it, as an issue tracker
     * gives it and a test's comment cites it ({@code [CALCITE-7488] ProjectJoinTransposeRule produces row-type
     * mismatch …}, continued on the comment's next lines up to the link's end, the comment's end or the first
     * sentence's); null where no title of three words or more follows, or an address does.
     */
    static String title(String patch, String ticket) {
        String mark = "[" + ticket + "]";
        int start = -1;
        int at = patch.indexOf(mark);
        for (; at >= 0; at = patch.indexOf(mark, at + 1)) {
            start = patch.lastIndexOf('\n', at) + 1;
            if (patch.charAt(start) == '+' && !patch.startsWith("+++ ", start)) {
                break;
            }
        }
        if (at < 0) {
            return null;
        }
        String marker = commentMarker(patch.substring(start + 1, at).strip());
        int end = DiffTokens.lineEnd(patch, at);
        StringBuilder text = new StringBuilder(patch.substring(at + mark.length(), end).strip());
        if (text.toString().startsWith("</a>")) {
            text.delete(0, 4); // the link's text was the ticket alone: the title follows it ("</a>; Title")
            while (!text.isEmpty() && ";:,-".indexOf(text.charAt(0)) >= 0) {
                text.deleteCharAt(0);
            }
        }
        for (int from = end + 1, lines = 0; lines < TITLE_LINES && !marker.isEmpty() && from < patch.length()
                && !TITLE_END.matcher(text).find(); lines++) {
            int next = DiffTokens.lineEnd(patch, from);
            String body = patch.substring(from, next);
            if (!body.startsWith("+")) {
                break;
            }
            body = body.substring(1).strip();
            if (!body.startsWith(marker)) {
                break;
            }
            body = body.substring(marker.length()).strip();
            if (body.isEmpty() || body.startsWith("@") || body.startsWith("<p>") || body.startsWith("/")) {
                break;
            }
            text.append(' ').append(body);
            from = next + 1;
        }
        java.util.regex.Matcher stop = TITLE_END.matcher(text);
        String t = stop.find() ? text.substring(0, stop.start()) : text.toString();
        t = MARKUP.matcher(t).replaceAll("").replaceAll("\\s+", " ").strip();
        while (!t.isEmpty() && ";:,-".indexOf(t.charAt(0)) >= 0) {
            t = t.substring(1).strip();
        }
        // a link's address is no title ("https://issues.apache.org/jira/browse/CALCITE-7486" after the ticket)
        return t.isEmpty() || !Character.isLetterOrDigit(t.charAt(0)) || t.contains("://") || t.split(" ").length < 3
                ? null : t;
    }

    /** The comment marker a line's text starts with ({@code *} for {@code /**} and {@code *}), empty for none. */
    private static String commentMarker(String before) {
        if (before.startsWith("/**") || before.startsWith("*")) {
            return "*";
        }
        for (String m : new String[] {"//", "#", "--"}) {
            if (before.startsWith(m)) {
                return m;
            }
        }
        return "";
    }

    /** The tickets of {@code key} in the line {@code [from, to)}: the key after no letter or digit, then digits. */
    private static List<String> ids(String patch, int from, int to, String key) {
        List<String> out = new ArrayList<>(1);
        for (int i = patch.indexOf(key, from); i >= 0 && i < to; i = patch.indexOf(key, i + 1)) {
            if (i > from && Character.isLetterOrDigit(patch.charAt(i - 1))) {
                continue;
            }
            int d = i + key.length();
            int e = d;
            while (e < to && Character.isDigit(patch.charAt(e))) {
                e++;
            }
            if (e > d && (e == to || !Character.isLetterOrDigit(patch.charAt(e)))) {
                out.add(patch.substring(i, e));
            }
        }
        return out;
    }

    /**
     * {@code s} with the diff's own ticket in place of the open number, where it has one and the history's subjects
     * carry their diffs' own tickets ({@link Conventions#ownTicketIsSubjects}); {@code s} otherwise.
     */
    static Subject fill(Subject s, String patch, Conventions conventions) {
        String open = s.ticket();
        if (!conventions.ownTicketIsSubjects() || !open.endsWith(StyleApplier.TICKET_PLACEHOLDER)) {
            return s;
        }
        String own = in(patch, StyleApplier.ticketKey(open));
        if (own == null) {
            return s;
        }
        List<String> tags = new ArrayList<>(s.tags().size());
        for (String t : s.tags()) {
            tags.add(t.equals(open) ? own : t);
        }
        return s.withTags(tags, own, s.plainTicket());
    }
}
