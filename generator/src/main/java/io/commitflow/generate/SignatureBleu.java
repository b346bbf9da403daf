package io.commitflow.generate;

/**
 * {@link Bleu#sentence} of one diff signature (the hypothesis) against many others, on primitive arrays: the same
 * value, bit for bit, at a fraction of the cost of boxed n-gram maps, which were a quarter of the CPU of a loaded job.
 *
 * <p>Words of ours get small ids (1 and up), and their counts sit in an array by id; an n-gram of two to four words
 * becomes a {@code long} of 16-bit ids, so n-grams of different lengths never share a key, and goes into one
 * open-addressing table with its count. Their n-grams are then looked up there (a word by its id) and counted, clipped
 * at our counts. A word only they have cannot sit in an n-gram
 * of ours, and an n-gram we lack has no longer n-gram we have starting with it (a prefix of ours is ours): both end
 * the lookups from that position. The signature is at most {@value DiffTokens#SIGNATURE_WORDS} words, so ids fit in
 * 16 bits with room to spare.
 *
 * <p>One scorer compares one diff with its neighbours, one after the other: it keeps its counting table between
 * calls (zeroing only the places a call used), so it is not for several threads at once.
 */
public final class SignatureBleu {
    private static final int N = 4;

    private final int size;
    /** Our words: open addressing, {@code wordId[i] == 0} is an empty place. */
    private final int[] words;
    private final int[] wordId;
    /** Our words' counts by id, and theirs during {@link #against} (zero between calls). */
    private final int[] wordCount;
    private final int[] theirWordCount;
    /** Our n-grams of two words and more: open addressing over {@code gramKey} ({@code 0} empty), with their counts. */
    private final long[] gramKey;
    private final int[] gramCount;
    /** Their counts per place of ours during {@link #against}, zero between calls, and the places a call used. */
    private final int[] theirCount;
    private final int[] used;
    /** {@link #against}'s scratch: their words as our ids, and the clipped matches per n-gram length. */
    private int[] theirMapped = new int[0];
    private final int[] correct = new int[N + 1];

    public SignatureBleu(int[] ours) {
        if (ours.length > 0xFFFF) {
            throw new IllegalArgumentException("a signature of " + ours.length + " words is longer than 65,535");
        }
        this.size = ours.length;
        int wordPlaces = Integer.highestOneBit(Math.max(8, ours.length * 2)) * 2;
        this.words = new int[wordPlaces];
        this.wordId = new int[wordPlaces];
        int[] mapped = new int[ours.length];
        int next = 1;
        for (int i = 0; i < ours.length; i++) {
            int at = place(ours[i], wordPlaces);
            while (wordId[at] != 0 && words[at] != ours[i]) {
                at = (at + 1) & (wordPlaces - 1);
            }
            if (wordId[at] == 0) {
                words[at] = ours[i];
                wordId[at] = next++;
            }
            mapped[i] = wordId[at];
        }
        this.wordCount = new int[next];
        this.theirWordCount = new int[next];
        for (int id : mapped) {
            wordCount[id]++;
        }
        int gramPlaces = Integer.highestOneBit(Math.max(8, ours.length * (N - 1) * 2)) * 2;
        this.gramKey = new long[gramPlaces];
        this.gramCount = new int[gramPlaces];
        this.theirCount = new int[gramPlaces];
        this.used = new int[gramPlaces];
        for (int i = 0; i < mapped.length; i++) {
            long key = mapped[i];
            for (int n = 2; n <= N && i + n <= mapped.length; n++) {
                key = key << 16 | mapped[i + n - 1];
                int at = place(key, gramPlaces);
                while (gramKey[at] != 0 && gramKey[at] != key) {
                    at = (at + 1) & (gramPlaces - 1);
                }
                gramKey[at] = key;
                gramCount[at]++;
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
        java.util.Arrays.fill(correct, 0);
        int usedPlaces = 0;
        for (int i = 0; i < length; i++) {
            long key = mapped[i];
            if (key == 0) {
                continue; // a word we lack: no n-gram of ours starts here
            }
            if (theirWordCount[(int) key]++ < wordCount[(int) key]) {
                correct[1]++;
            }
            for (int n = 2; n <= N && i + n <= length; n++) {
                int id = mapped[i + n - 1];
                if (id == 0) {
                    break;
                }
                key = key << 16 | id;
                int at = find(key);
                if (at < 0) {
                    break;
                }
                if (theirCount[at] == 0) {
                    used[usedPlaces++] = at;
                }
                if (theirCount[at]++ < gramCount[at]) {
                    correct[n]++;
                }
            }
        }
        for (int k = 0; k < usedPlaces; k++) {
            theirCount[used[k]] = 0;
        }
        for (int i = 0; i < length; i++) {
            theirWordCount[mapped[i]] = 0;
        }
        return Bleu.score(size, theirs.length, correct);
    }

    private int idOf(int word) {
        int at = place(word, words.length);
        while (wordId[at] != 0) {
            if (words[at] == word) {
                return wordId[at];
            }
            at = (at + 1) & (words.length - 1);
        }
        return 0;
    }

    private int find(long key) {
        int at = place(key, gramKey.length);
        while (gramKey[at] != 0) {
            if (gramKey[at] == key) {
                return at;
            }
            at = (at + 1) & (gramKey.length - 1);
        }
        return -1;
    }

    private static int place(long key, int places) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & (places - 1);
    }
}
