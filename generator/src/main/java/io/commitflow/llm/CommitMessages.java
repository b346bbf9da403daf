package io.commitflow.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns a model's reply into a commit message, or says it is none. Whatever the backend: code fences and
 * preambles ("Here is a commit message:") removed, the first of several options taken, the subject made 20–72
 * characters, without a trailing period, in the imperative ("Added"/"Adds" → "Add"), the body wrapped at 72.
 */
public final class CommitMessages {
    /** A cleaned message. */
    public record Message(String subject, String body) {}

    static final int MIN_SUBJECT = 20;
    static final int MAX_SUBJECT = 72;
    static final int WRAP = 72;
    private static final Pattern PREAMBLE = Pattern.compile(
            "(?i)^(sure[,!.]?\\s*)?(here('s| is)|below is)\\b.*?:\\s*$");
    private static final Pattern OPTION = Pattern.compile("(?i)^(option\\s*\\d+[:.)]|\\d+[.)]\\s|[-*]\\s)");
    private static final Pattern LABEL = Pattern.compile("(?i)^(commit message|subject|title)\\s*:\\s*");

    private CommitMessages() {}

    public static Optional<Message> clean(String reply) {
        if (reply == null || reply.isBlank()) {
            return Optional.empty();
        }
        List<String> lines = new ArrayList<>();
        for (String line : reply.replace("\r", "").split("\n", -1)) {
            String l = line.strip();
            if (l.startsWith("```") || l.equals("\"\"\"")) {
                continue; // code fences
            }
            lines.add(line.stripTrailing());
        }
        while (!lines.isEmpty() && (lines.get(0).isBlank() || PREAMBLE.matcher(lines.get(0).strip()).matches())) {
            lines.remove(0);
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        // several options: take the first
        if (OPTION.matcher(lines.get(0).strip()).find()) {
            String first = OPTION.matcher(lines.get(0).strip()).replaceFirst("").strip();
            lines = new ArrayList<>(List.of(first));
        }
        String subject = LABEL.matcher(lines.get(0).strip()).replaceFirst("").replaceAll("^[\"'`*]+|[\"'`*]+$", "").strip();
        subject = imperative(subject);
        while (subject.endsWith(".")) {
            subject = subject.substring(0, subject.length() - 1).stripTrailing();
        }
        if (subject.length() > MAX_SUBJECT) {
            int cut = subject.lastIndexOf(' ', MAX_SUBJECT);
            subject = subject.substring(0, cut > MIN_SUBJECT ? cut : MAX_SUBJECT).stripTrailing();
        }
        if (subject.length() < MIN_SUBJECT) {
            return Optional.empty(); // "Fix" or "Update": not a description
        }
        List<String> rest = lines.subList(1, lines.size());
        String body = wrap(String.join("\n", rest).strip());
        if (body.length() > 4000) {
            return Optional.empty(); // an essay, not a commit message
        }
        return Optional.of(new Message(subject, body));
    }

    /** "Added x" / "Adds x" → "Add x"; a few common verbs. */
    static String imperative(String s) {
        String[] words = s.split(" ", 2);
        if (words.length == 0 || words[0].isEmpty()) {
            return s;
        }
        String w = words[0];
        String lower = w.toLowerCase(Locale.ROOT);
        String base = null;
        for (String verb : List.of("add", "fix", "remove", "update", "refactor", "rename", "move", "use", "make",
                "improve", "handle", "support", "avoid", "allow", "change", "bump", "implement", "document", "drop",
                "replace", "simplify", "introduce", "prevent", "ensure", "extract", "clean")) {
            if (lower.equals(verb + "ed") || lower.equals(verb + "d") || lower.equals(verb + "s") || lower.equals(verb + "es")
                    || lower.equals(verb + "ing") || (verb.endsWith("e") && lower.equals(verb.substring(0, verb.length() - 1) + "ing"))) {
                base = verb;
                break;
            }
        }
        if (base == null) {
            return s;
        }
        String fixed = Character.isUpperCase(w.charAt(0)) ? Character.toUpperCase(base.charAt(0)) + base.substring(1) : base;
        return words.length == 1 ? fixed : fixed + " " + words[1];
    }

    /** Paragraphs re-flowed to 72 columns; lines that look like lists or code are kept as they are. */
    static String wrap(String body) {
        if (body.isEmpty()) {
            return body;
        }
        StringBuilder out = new StringBuilder();
        for (String para : body.split("\n\\s*\n")) {
            if (!out.isEmpty()) {
                out.append("\n\n");
            }
            StringBuilder line = new StringBuilder();
            for (String raw : para.split("\n")) {
                if (raw.startsWith("    ") || raw.strip().matches("^([-*]|\\d+[.)])\\s.*")) {
                    if (!line.isEmpty()) {
                        out.append(line).append('\n');
                        line.setLength(0);
                    }
                    out.append(raw.stripTrailing()).append('\n');
                    continue;
                }
                for (String word : raw.strip().split("\\s+")) {
                    if (word.isEmpty()) {
                        continue;
                    }
                    if (!line.isEmpty() && line.length() + 1 + word.length() > WRAP) {
                        out.append(line).append('\n');
                        line.setLength(0);
                    }
                    if (!line.isEmpty()) {
                        line.append(' ');
                    }
                    line.append(word);
                }
            }
            if (!line.isEmpty()) {
                out.append(line);
            }
            while (out.length() > 0 && out.charAt(out.length() - 1) == '\n') {
                out.setLength(out.length() - 1);
            }
        }
        return out.toString();
    }
}
