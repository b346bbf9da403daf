package io.commitflow.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many events per second to offer over time, piecewise linear:
 * <ul>
 * <li>{@code constant:N/T} — N events/s for T (e.g. {@code constant:500/60s});</li>
 * <li>{@code ramp:A..B/T} — from A to B events/s, linearly, over T;</li>
 * <li>{@code steps:A,B,C/T} — A events/s for T, then B for T, then C for T;</li>
 * <li>{@code N} — N events/s until the events run out ({@code 0}: as fast as the producer takes them).</li>
 * </ul>
 * T is a number with a unit: {@code ms}, {@code s}, {@code m}, {@code h}. A profile has steps — the load test
 * reports per step: a constant profile is one step, a ramp is cut into {@value #RAMP_STEPS} equal steps.
 */
public final class RateProfile {
    static final int RAMP_STEPS = 5;
    private static final Pattern CONSTANT = Pattern.compile("constant:([0-9.]+)/(.+)");
    private static final Pattern RAMP = Pattern.compile("ramp:([0-9.]+)\\.\\.([0-9.]+)/(.+)");
    private static final Pattern STEPS = Pattern.compile("steps:([0-9.,]+)/(.+)");
    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

    /** A piece of the profile: the rate goes linearly from {@code from} to {@code to} events/s between its times. */
    public record Step(double startSeconds, double endSeconds, double from, double to) {
        public double seconds() {
            return endSeconds - startSeconds;
        }

        /** Events offered over the whole step. */
        public double events() {
            return (from + to) / 2 * seconds();
        }

        /** The mean offered rate. */
        public double offeredPerSecond() {
            return (from + to) / 2;
        }
    }

    private final String spec;
    private final List<Step> steps;
    private final double unbounded;

    private RateProfile(String spec, List<Step> steps, double unbounded) {
        this.spec = spec;
        this.steps = List.copyOf(steps);
        this.unbounded = unbounded;
    }

    public static RateProfile parse(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        Matcher m;
        try {
            if ((m = CONSTANT.matcher(s)).matches()) {
                double n = rate(m.group(1));
                return new RateProfile(spec, List.of(new Step(0, seconds(m.group(2)), n, n)), -1);
            }
            if ((m = RAMP.matcher(s)).matches()) {
                double a = rate(m.group(1));
                double b = rate(m.group(2));
                double t = seconds(m.group(3));
                List<Step> steps = new ArrayList<>();
                for (int i = 0; i < RAMP_STEPS; i++) {
                    double t0 = t * i / RAMP_STEPS;
                    double t1 = t * (i + 1) / RAMP_STEPS;
                    steps.add(new Step(t0, t1, a + (b - a) * i / RAMP_STEPS, a + (b - a) * (i + 1) / RAMP_STEPS));
                }
                return new RateProfile(spec, steps, -1);
            }
            if ((m = STEPS.matcher(s)).matches()) {
                double t = seconds(m.group(2));
                List<Step> steps = new ArrayList<>();
                String[] rates = m.group(1).split(",");
                for (int i = 0; i < rates.length; i++) {
                    double r = rate(rates[i]);
                    steps.add(new Step(t * i, t * (i + 1), r, r));
                }
                return new RateProfile(spec, steps, -1);
            }
            if (s.matches("[0-9.]+")) {
                return new RateProfile(spec, List.of(), rate(s));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + spec + "' is not a rate profile: use constant:N/T, ramp:A..B/T, "
                + "steps:A,B,C/T (T like 30s, 2m) or a plain rate N");
    }

    /** {@code N} events a second until the events run out; 0 or less: as fast as the producer takes them. */
    public static RateProfile perSecond(double n) {
        return new RateProfile(Double.toString(n), List.of(), Math.max(0, n));
    }

    /**
     * This profile after a warm-up of {@code seconds} at its first rate, as a step of its own: the job's JIT, caches
     * and indexes warm up there, apart from the steps that are measured.
     */
    public RateProfile withWarmup(double seconds) {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a warm-up needs a profile with steps (constant:, ramp: or steps:)");
        }
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("a warm-up must last more than 0 s: " + seconds);
        }
        List<Step> shifted = new ArrayList<>();
        double first = steps.get(0).from();
        shifted.add(new Step(0, seconds, first, first));
        for (Step s : steps) {
            shifted.add(new Step(s.startSeconds() + seconds, s.endSeconds() + seconds, s.from(), s.to()));
        }
        return new RateProfile(spec + " after a warm-up of " + seconds + " s", shifted, -1);
    }

    private static double rate(String s) {
        double r = Double.parseDouble(s);
        if (r < 0 || Double.isNaN(r) || Double.isInfinite(r)) {
            throw new NumberFormatException(s);
        }
        return r;
    }

    private static double seconds(String s) {
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) {
            throw new NumberFormatException(s);
        }
        double v = Double.parseDouble(m.group(1));
        double sec = switch (m.group(2)) {
            case "ms" -> v / 1000;
            case "s" -> v;
            case "m" -> v * 60;
            default -> v * 3600;
        };
        if (sec <= 0) {
            throw new NumberFormatException(s);
        }
        return sec;
    }

    /** The steps, in order; none for a plain rate. */
    public List<Step> steps() {
        return steps;
    }

    /** How long the profile lasts, or infinity for a plain rate. */
    public double seconds() {
        return steps.isEmpty() ? Double.POSITIVE_INFINITY : steps.get(steps.size() - 1).endSeconds();
    }

    /** Events the profile offers in all (infinity for a plain rate). */
    public double events() {
        return steps.isEmpty() ? Double.POSITIVE_INFINITY : steps.stream().mapToDouble(Step::events).sum();
    }

    /** The offered rate at {@code t} seconds. */
    public double rateAt(double t) {
        if (steps.isEmpty()) {
            return unbounded;
        }
        for (Step s : steps) {
            if (t < s.endSeconds()) {
                return s.from() + (s.to() - s.from()) * (t - s.startSeconds()) / s.seconds();
            }
        }
        return 0;
    }

    /** The step that {@code t} seconds falls in, or -1 after the end (0 for a plain rate). */
    public int stepAt(double t) {
        if (steps.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < steps.size(); i++) {
            if (t < steps.get(i).endSeconds()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * When event number {@code n} (from 0) is due, in seconds from the start: the time at which the profile has
     * offered {@code n} events. NaN when the profile ends before; 0 for "as fast as possible".
     */
    public double dueSeconds(long n) {
        if (steps.isEmpty()) {
            return unbounded <= 0 ? 0 : n / unbounded;
        }
        double before = 0;
        for (Step s : steps) {
            double e = s.events();
            if (n < before + e) {
                double k = n - before; // events into this step: solve from·x + (to−from)·x²/(2·T) = k
                double a = (s.to() - s.from()) / (2 * s.seconds());
                double b = s.from();
                double x = Math.abs(a) < 1e-12 ? (b == 0 ? 0 : k / b) : (-b + Math.sqrt(b * b + 4 * a * k)) / (2 * a);
                return s.startSeconds() + Math.min(Math.max(x, 0), s.seconds());
            }
            before += e;
        }
        return Double.NaN;
    }

    @Override
    public String toString() {
        return spec;
    }
}
