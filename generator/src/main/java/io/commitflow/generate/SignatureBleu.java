package io.commitflow.generate;

/**
 * {@link Bleu#sentence} of one diff signature (the hypothesis) against many others, on primitive arrays: the same
 * value, bit for bit, at a fraction of the cost of boxed n-gram maps, which were a quarter of the CPU of a loaded job.
 *
 * <p>Words of ours get small ids (1 to {@value #MAX_WORDS}), and their counts sit in an array by id; an n-gram of two
 * to four words becomes a key of 9-bit ids (its first id is never 0, so n-grams of different lengths never share a
 * key), kept in one {@code long} of an open-addressing table with our count and theirs beside it: one {@code long}
 * holds all a lookup reads. Their n-grams are then looked up there (a word by its id) and counted, clipped
 * at our counts. A word only they have cannot sit in an n-gram
 * of ours, and an n-gram we lack has no longer n-gram we have starting with it (a prefix of ours is ours): both end
 * the lookups from that position. Their count of an n-gram stops at ours (the clipping), so it fits its field. The
 * signature is at most {@value DiffTokens#SIGNATURE_WORDS} words, within the {@value #MAX_WORDS} distinct ones the
 * ids allow.
 *
 * <p>One scorer compares one diff with its neighbours, one after the other: it keeps its counting table between
 * calls (zeroing only the places a call used), so it is not for several threads at once.
 */
public final class SignatureBleu {
    private static final int N = 4;
    /** The most distinct words of ours: their ids take 9 bits, four of them (a 4-gram) 36. */
    static final int MAX_WORDS = 511;
    private static final int ID_BITS = 9;
    /** A count's field: our signature is at most {@value #MAX_LENGTH} words, so no n-gram of ours is counted more. */
    private static final int COUNT_BITS = 10;
    static final int MAX_LENGTH = (1 << COUNT_BITS) - 1;
    /** An n-gram's entry: its key (bits 0–35), our count (36–45) and theirs (46–55); 0 is an empty place. */
    private static final long KEY_MASK = (1L << 36) - 1;
    private static final int OURS_SHIFT = 36;
    private static final int THEIRS_SHIFT = OURS_SHIFT + COUNT_BITS;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long THEIRS_ONE = 1L << THEIRS_SHIFT;

    private final int size;
    /** Our words and their ids, {@code word << 32 | id}: open addressing, 0 is an empty place (ids start at 1). */
    private final long[] words;
    /** Our words' counts by id, and theirs during {@link #against} (zero between calls). */
    private final int[] wordCount;
    private final int[] theirWordCount;
    /** Our n-grams of two words and more, with both counts; theirs are zero between calls. */
    private final long[] grams;
    /** The places of {@link #grams} whose count of theirs a call set. */
    private final int[] used;
    /** {@link #against}'s scratch: their words as our ids, and the clipped matches per n-gram length. */
    private int[] theirMapped = new int[0];
    private final int[] correct = new int[N + 1];

    public SignatureBleu(int[] ours) {
        if (ours.length > MAX_LENGTH) {
            throw new IllegalArgumentException("a signature of " + ours.length + " words is longer than " + MAX_LENGTH);
        }
        this.size = ours.length;
        int wordPlaces = Integer.highestOneBit(Math.max(8, ours.length * 2)) * 2;
        this.words = new long[wordPlaces];
        int[] mapped = new int[ours.length];
        int next = 1;
        for (int i = 0; i < ours.length; i++) {
            int at = place(ours[i], wordPlaces);
            while (words[at] != 0 && (int) (words[at] >>> 32) != ours[i]) {
                at = (at + 1) & (wordPlaces - 1);
            }
            if (words[at] == 0) {
                if (next > MAX_WORDS) {
                    throw new IllegalArgumentException("a signature of more than " + MAX_WORDS + " distinct words");
                }
                words[at] = (long) ours[i] << 32 | next++;
            }
            mapped[i] = (int) words[at];
        }
        this.wordCount = new int[next];
        this.theirWordCount = new int[next];
        for (int id : mapped) {
            wordCount[id]++;
        }
        int gramPlaces = Integer.highestOneBit(Math.max(8, ours.length * (N - 1) * 2)) * 2;
        this.grams = new long[gramPlaces];
        this.used = new int[gramPlaces];
        for (int i = 0; i < mapped.length; i++) {
            long key = mapped[i];
            for (int n = 2; n <= N && i + n <= mapped.length; n++) {
                key = key << ID_BITS | mapped[i + n - 1];
                int at = place(key, gramPlaces);
                while (grams[at] != 0 && (grams[at] & KEY_MASK) != key) {
                    at = (at + 1) & (gramPlaces - 1);
                }
                grams[at] = (grams[at] == 0 ? key : grams[at]) + (1L << OURS_SHIFT);
            }
        }
    }

    /** B-Norm of our signature against {@code theirs}: {@code Bleu.sentence(ours, theirs)}. */
    public double against(int[] theirs) {
        if (theirMapped.length < theirs.length) {
            theirMapped = new int[Math.max(theirs.length, DiffTokens.SIGNATURE_WORDS)];
        }
        int[] mapped = theirMapped;
        int length = theirs.length;
        for (int i = 0; i < length; i++) {
            mapped[i] = idOf(theirs[i]);
        }
        int[] correct = this.correct;
        int[] ourWords = wordCount;
        int[] theirWords = theirWordCount;
        long[] grams = this.grams;
        int mask = grams.length - 1;
        int unigrams = 0;
        int usedPlaces = 0;
        correct[2] = 0;
        correct[3] = 0;
        correct[4] = 0;
        for (int i = 0; i < length; i++) {
            int id = mapped[i];
            int t = theirWords[id];
            int inc = (t - ourWords[id]) >>> 31; // 1 while theirs are fewer than ours (never for 0, a word we lack)
            theirWords[id] = t + inc;
            unigrams += inc;
            if (id == 0) {
                continue; // a word we lack: no n-gram of ours starts here
            }
            long key = id;
            for (int n = 2; n <= N && i + n <= length; n++) {
                int next = mapped[i + n - 1];
                if (next == 0) {
                    break;
                }
                key = key << ID_BITS | next;
                int at = place(key, grams.length);
                long e;
                while ((e = grams[at]) != 0 && (e & KEY_MASK) != key) {
                    at = (at + 1) & mask;
                }
                if (e == 0) {
                    break; // an n-gram we lack: no longer one of ours starts with it
                }
                long their = e >>> THEIRS_SHIFT;
                if (their == 0) {
                    used[usedPlaces++] = at;
                }
                if (their < ((e >>> OURS_SHIFT) & COUNT_MASK)) {
                    grams[at] = e + THEIRS_ONE;
                    correct[n]++;
                }
            }
        }
        correct[1] = unigrams;
        for (int k = 0; k < usedPlaces; k++) {
            grams[used[k]] &= ~(COUNT_MASK << THEIRS_SHIFT);
        }
        for (int i = 0; i < length; i++) {
            theirWords[mapped[i]] = 0;
        }
        return Bleu.score(size, theirs.length, correct);
    }

    private int idOf(int word) {
        long[] table = words;
        int at = place(word, table.length);
        for (long e = table[at]; e != 0; e = table[at]) {
            if ((int) (e >>> 32) == word) {
                return (int) e;
            }
            at = (at + 1) & (table.length - 1);
        }
        return 0;
    }

    private static int place(long key, int places) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & (places - 1);
    }
}
