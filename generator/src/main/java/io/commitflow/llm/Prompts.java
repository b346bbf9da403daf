package io.commitflow.llm;

import java.util.ArrayList;
import java.util.List;

/**
 * Prompts for a chat model: a stable prefix — the instructions and the repository's retrieved exemplars, the part a
 * server can keep in its KV cache and the prompt cache keys — then the diff, fitted to a token budget. Tokens are
 * estimated as four characters each (the usual figure for English and code; the server's own count comes back in
 * the reply).
 */
public final class Prompts {
    static final String INSTRUCTIONS = """
            You write the commit message for a Git commit from its diff, in the style of the repository's own
            commits shown below. Reply with the message only: a subject line of 20 to 72 characters in the
            imperative mood without a trailing period, then, if the change needs explaining, a blank line and a
            body wrapped at 72 columns. Never invent ticket or issue numbers.""";

    private Prompts() {}

    /** An exemplar: an earlier commit's subject and the files it changed. */
    public record Exemplar(String subject, List<String> files) {}

    /** The template the prefix is rendered from: part of the prompt cache's key. */
    public static final String TEMPLATE = "commit-message/v1";

    /** A prefix from exemplars alone (no repository-level prefix is cached yet). */
    public static String prefix(List<Exemplar> exemplars) {
        return prefix("", exemplars);
    }

    /**
     * The stable prefix: instructions, the repository's conventions and a set of its commits that changes only now
     * and then (same inputs, same prefix, byte for byte).
     */
    public static String prefix(String style, List<Exemplar> exemplars) {
        StringBuilder p = new StringBuilder(INSTRUCTIONS).append("\n");
        if (!style.isEmpty()) {
            p.append('\n').append(style).append('\n');
        }
        p.append("\nEarlier commits of this repository:\n");
        list(p, exemplars);
        return p.toString();
    }

    /**
     * The system prompt of a tenant's request: the repository's (cached) {@code prefix}, then the tenant's own
     * instructions when it has any. After the prefix, so that the prefix's cached tokens are reused as before; the
     * instructions are the last word on form.
     */
    public static String system(String prefix, String instructions) {
        if (instructions == null || instructions.isBlank()) {
            return prefix;
        }
        return prefix + "\nThe team's own instructions, which come before the style above where they differ:\n"
                + instructions.strip() + "\n";
    }

    /** The part that changes: the nearest earlier commits to this diff, then the diff. */
    public static String user(List<Exemplar> nearest, String diff) {
        StringBuilder u = new StringBuilder();
        if (!nearest.isEmpty()) {
            u.append("The earlier commits most like this one:\n");
            list(u, nearest);
            u.append('\n');
        }
        return u.append("The diff:\n").append(diff).toString();
    }

    private static void list(StringBuilder p, List<Exemplar> exemplars) {
        for (Exemplar e : exemplars) {
            p.append("- ").append(e.subject());
            if (!e.files().isEmpty()) {
                p.append("  (").append(String.join(", ", e.files())).append(')');
            }
            p.append('\n');
        }
    }

    public static int tokens(String text) {
        return (text.length() + 3) / 4;
    }

    /**
     * The diff within {@code budget} tokens, never cut inside a line: whole when it fits; else each file keeps
     * its header and as many whole hunks as fit, the other hunks summarised as their header and line counts; files
     * beyond even that become one summary line each ({@code path: +added -deleted}).
     */
    public static String fitDiff(String patch, int budget) {
        if (tokens(patch) <= budget) {
            return patch;
        }
        List<FilePart> files = split(patch);
        StringBuilder out = new StringBuilder();
        List<FilePart> summarised = new ArrayList<>();
        String more = "# more files, summarised:\n";
        int summaryReserve = tokens(more) + 1;
        for (FilePart f : files) {
            summaryReserve += tokens(f.summary()) + 1;
        }
        for (FilePart f : files) {
            summaryReserve -= tokens(f.summary()) + 1;
            int left = budget - tokens(out.toString()) - summaryReserve;
            if (tokens(f.header) + 2 > left) {
                summarised.add(f);
                continue;
            }
            StringBuilder part = new StringBuilder(f.header);
            for (String hunk : f.hunks) {
                String line = hunk;
                if (tokens(part.toString()) + tokens(line) > left) {
                    line = hunkSummary(hunk);
                    if (tokens(part.toString()) + tokens(line) > left) {
                        break;
                    }
                }
                part.append(line);
            }
            out.append(part);
        }
        if (!summarised.isEmpty()) {
            out.append(more);
            for (FilePart f : summarised) {
                String s = f.summary() + "\n";
                if (tokens(out.toString()) + tokens(s) > budget) {
                    break;
                }
                out.append(s);
            }
        }
        return out.toString();
    }

    /** The share of a prompt that the server can serve from its cache: reused prefix tokens / prompt tokens. */
    public static double kvReuseRatio(int reusedPrefixTokens, int promptTokens) {
        return promptTokens <= 0 ? 0 : Math.min(1.0, (double) reusedPrefixTokens / promptTokens);
    }

    private record FilePart(String path, String header, List<String> hunks, int added, int deleted) {
        String summary() {
            return path + ": +" + added + " -" + deleted;
        }
    }

    private static List<FilePart> split(String patch) {
        List<FilePart> out = new ArrayList<>();
        String[] lines = patch.split("(?<=\n)");
        int i = 0;
        while (i < lines.length) {
            if (!lines[i].startsWith("diff --git ")) {
                i++;
                continue;
            }
            String path = lines[i].strip().replaceFirst("^diff --git a/\\S+ b/", "");
            StringBuilder header = new StringBuilder(lines[i++]);
            while (i < lines.length && !lines[i].startsWith("@@") && !lines[i].startsWith("diff --git ")) {
                header.append(lines[i++]);
            }
            List<String> hunks = new ArrayList<>();
            int added = 0;
            int deleted = 0;
            while (i < lines.length && lines[i].startsWith("@@")) {
                StringBuilder h = new StringBuilder(lines[i++]);
                while (i < lines.length && !lines[i].startsWith("@@") && !lines[i].startsWith("diff --git ")) {
                    if (lines[i].startsWith("+")) {
                        added++;
                    } else if (lines[i].startsWith("-")) {
                        deleted++;
                    }
                    h.append(lines[i++]);
                }
                hunks.add(h.toString());
            }
            out.add(new FilePart(path, header.toString(), hunks, added, deleted));
        }
        return out;
    }

    private static String hunkSummary(String hunk) {
        String head = hunk.substring(0, hunk.indexOf('\n') + 1);
        long added = hunk.lines().skip(1).filter(l -> l.startsWith("+")).count();
        long deleted = hunk.lines().skip(1).filter(l -> l.startsWith("-")).count();
        return head + "# … hunk summarised: +" + added + " -" + deleted + " lines\n";
    }
}
