package io.commitflow.generate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How one repository writes its subjects, counted from its history: conventional commits, bracket tags and
 * tickets, {@code area: } prefixes (and whether the area is usually a changed file's name), capitalisation,
 * trailing periods, pull-request suffixes. Part of the repository's model state; the maps keep their 64 most
 * frequent keys.
 */
public final class RepoStyle {
    static final int MAX_KEYS = 64;

    public int total;
    public int conventional;
    public int tagged;
    public int ticketed;
    public int plainTicket;
    public int area;
    public int areaIsFile;
    public int scopeIsFile;
    public int capitalized;
    public int period;
    public int pullRequest;
    public long descriptionChars;
    public Map<String, Integer> types = new HashMap<>();
    public Map<String, Integer> tags = new HashMap<>();
    public Map<String, Integer> ticketKeys = new HashMap<>();

    /** A copy, for a request that must not see later learning. */
    public RepoStyle copy() {
        RepoStyle c = new RepoStyle();
        c.total = total;
        c.conventional = conventional;
        c.tagged = tagged;
        c.ticketed = ticketed;
        c.plainTicket = plainTicket;
        c.area = area;
        c.areaIsFile = areaIsFile;
        c.scopeIsFile = scopeIsFile;
        c.capitalized = capitalized;
        c.period = period;
        c.pullRequest = pullRequest;
        c.descriptionChars = descriptionChars;
        c.types = new HashMap<>(types);
        c.tags = new HashMap<>(tags);
        c.ticketKeys = new HashMap<>(ticketKeys);
        return c;
    }

    public void learn(Subject s, List<String> fileNames) {
        total++;
        if (!s.type().isEmpty()) {
            conventional++;
            bump(types, s.type());
            if (!s.scope().isEmpty() && matchesFile(s.scope(), fileNames)) {
                scopeIsFile++;
            }
        } else if (!s.area().isEmpty()) {
            area++;
            if (matchesFile(s.area(), fileNames)) {
                areaIsFile++;
            }
        }
        if (!s.tags().isEmpty()) {
            tagged++;
            for (String t : s.tags()) {
                if (!t.equals(s.ticket())) {
                    bump(tags, t);
                }
            }
        }
        if (!s.ticket().isEmpty()) {
            ticketed++;
            if (s.plainTicket()) {
                plainTicket++;
            }
            bump(ticketKeys, s.ticket().substring(0, s.ticket().indexOf('-')));
        }
        String d = s.description();
        if (!d.isEmpty()) {
            if (Character.isUpperCase(d.codePointAt(0))) {
                capitalized++;
            }
            if (d.endsWith(".")) {
                period++;
            }
            descriptionChars += d.length();
        }
        if (s.pullRequest()) {
            pullRequest++;
        }
    }

    static boolean matchesFile(String label, List<String> fileNames) {
        for (String f : fileNames) {
            if (f.equalsIgnoreCase(label)) {
                return true;
            }
        }
        return false;
    }

    double share(int count) {
        return total == 0 ? 0 : (double) count / total;
    }

    boolean usesConventional() {
        return share(conventional) >= 0.3;
    }

    boolean usesArea() {
        return share(area) >= 0.3;
    }

    boolean capitalizes() {
        return capitalized * 2 >= Math.max(1, total);
    }

    private static void bump(Map<String, Integer> m, String key) {
        m.merge(key, 1, Integer::sum);
        if (m.size() > MAX_KEYS) {
            String least = null;
            int min = Integer.MAX_VALUE;
            for (var e : m.entrySet()) {
                if (e.getValue() < min || (e.getValue() == min && least != null && e.getKey().compareTo(least) > 0)) {
                    min = e.getValue();
                    least = e.getKey();
                }
            }
            m.remove(least);
        }
    }

    /** The repository's conventions in a sentence, for an LLM's prompt (stable while the counts barely move). */
    public String describe() {
        if (total == 0) {
            return "No earlier commits yet.";
        }
        List<String> parts = new java.util.ArrayList<>();
        if (usesConventional()) {
            List<String> top = types.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(5).map(Map.Entry::getKey).toList();
            parts.add("conventional commits (type(scope): description; types " + String.join(", ", top) + ")");
        } else if (usesArea()) {
            parts.add("subjects start with the area changed, then a colon");
        }
        if (share(ticketed) >= 0.3) {
            parts.add("subjects carry a ticket id");
        }
        parts.add(capitalizes() ? "the description starts with a capital letter" : "the description starts in lower case");
        parts.add(period * 2 > total ? "subjects end with a period" : "no period at the end");
        return "Conventions: " + String.join("; ", parts) + ".";
    }
}
