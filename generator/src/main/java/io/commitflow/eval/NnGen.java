package io.commitflow.eval;

import io.commitflow.generate.Bleu;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NNGen baseline (Liu et al., ASE 2018, "Neural-machine-translation-based commit message generation: how far
 * are we?"): each diff is a bag of words (scikit-learn's default tokens: runs of two or more word characters,
 * lowercased); the five training diffs nearest by cosine are re-ranked by BLEU-4 between the diffs' token
 * sequences, and the winner's message is reused as is. Here the training set is the last {@code history} commits,
 * as in commitflow's online protocol, plus the fleet's commits when the evaluation has a fleet.
 */
final class NnGen {
    private static final Pattern WORD = Pattern.compile("\\w\\w+", Pattern.UNICODE_CHARACTER_CLASS);
    private static final int TOP = 5;
    private static final int MAX_TOKENS = 2000;

    private record Entry(Map<String, Integer> bag, double norm, List<String> tokens, String message) {}

    private final int history;
    private final Deque<Entry> entries = new ArrayDeque<>();
    /** A young repository's fleet: the tenant's other repositories' commits, never evicted. */
    private final List<Entry> fleet = new ArrayList<>();

    NnGen(int history) {
        this.history = history;
    }

    String predict(String diff) {
        List<String> tokens = tokens(diff);
        Map<String, Integer> bag = bag(tokens);
        double norm = norm(bag);
        List<Entry> all = new ArrayList<>(fleet); // older than the history: behind it on equal similarity
        all.addAll(entries);
        List<double[]> scored = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            scored.add(new double[] {cosine(bag, norm, all.get(i)), i});
        }
        // most similar first; among equals the newer entry (higher index) first
        scored.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(b[1], a[1]));
        String best = "";
        double bestBleu = -1;
        for (int i = 0; i < Math.min(TOP, scored.size()); i++) {
            Entry e = all.get((int) scored.get(i)[1]);
            double b = Bleu.sentence(tokens, e.tokens());
            if (b > bestBleu) {
                bestBleu = b;
                best = e.message();
            }
        }
        return best;
    }

    /** Adds a commit of another repository of the tenant, kept however long the history grows. */
    void learnFleet(String diff, String message) {
        fleet.add(entry(diff, message));
    }

    void learn(String diff, String message) {
        entries.addLast(entry(diff, message));
        while (entries.size() > history) {
            entries.removeFirst();
        }
    }

    private static Entry entry(String diff, String message) {
        List<String> tokens = tokens(diff);
        Map<String, Integer> bag = bag(tokens);
        return new Entry(bag, norm(bag), tokens, message);
    }

    private static List<String> tokens(String diff) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(diff.toLowerCase(Locale.ROOT));
        while (m.find() && out.size() < MAX_TOKENS) {
            out.add(m.group());
        }
        return out;
    }

    private static Map<String, Integer> bag(List<String> tokens) {
        Map<String, Integer> b = new HashMap<>();
        tokens.forEach(t -> b.merge(t, 1, Integer::sum));
        return b;
    }

    private static double norm(Map<String, Integer> b) {
        double s = 0;
        for (int v : b.values()) {
            s += (double) v * v;
        }
        return Math.sqrt(s);
    }

    private static double cosine(Map<String, Integer> q, double qn, Entry e) {
        if (qn == 0 || e.norm() == 0) {
            return 0;
        }
        Map<String, Integer> small = q.size() <= e.bag().size() ? q : e.bag();
        Map<String, Integer> large = small == q ? e.bag() : q;
        double dot = 0;
        for (var x : small.entrySet()) {
            Integer y = large.get(x.getKey());
            if (y != null) {
                dot += (double) x.getValue() * y;
            }
        }
        return dot / (qn * e.norm());
    }
}
