package io.commitflow.git;

import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;

/**
 * Slides groups of changed lines the way C git does after any diff algorithm (xdiff's change compaction,
 * without the indent heuristic), so that an ambiguous insertion or deletion lands where git puts it: as low
 * as it can go, unless sliding it up lines it up with a change on the other side. Equal lines make many
 * placements valid; git's choice decides the patch text, and so the patch-id.
 */
final class GitCompaction {
    private GitCompaction() {}

    static EditList compact(EditList edits, RawText a, RawText b) {
        if (edits.isEmpty()) {
            return edits;
        }
        // changed[i + 1] marks line i; index 0 and n + 1 are sentinels that are never changed
        boolean[] ca = new boolean[a.size() + 2];
        boolean[] cb = new boolean[b.size() + 2];
        for (Edit e : edits) {
            for (int i = e.getBeginA(); i < e.getEndA(); i++) {
                ca[i + 1] = true;
            }
            for (int i = e.getBeginB(); i < e.getEndB(); i++) {
                cb[i + 1] = true;
            }
        }
        Side sa = new Side(a, ca);
        Side sb = new Side(b, cb);
        compact(sa, sb);
        compact(sb, sa);
        return script(ca, a.size(), cb, b.size());
    }

    /** One file's lines and change marks, with git's group moves. */
    private static final class Side {
        final RawText text;
        final boolean[] changed;
        final int n;
        int start;
        int end;

        Side(RawText text, boolean[] changed) {
            this.text = text;
            this.changed = changed;
            this.n = text.size();
        }

        boolean at(int line) {
            return changed[line + 1];
        }

        void set(int line, boolean value) {
            changed[line + 1] = value;
        }

        void first() {
            start = 0;
            end = 0;
            while (at(end)) {
                end++;
            }
        }

        boolean next() {
            if (end == n) {
                return false;
            }
            start = end + 1;
            end = start;
            while (at(end)) {
                end++;
            }
            return true;
        }

        boolean previous() {
            if (start == 0) {
                return false;
            }
            end = start - 1;
            start = end;
            while (at(start - 1)) {
                start--;
            }
            return true;
        }

        boolean slideDown() {
            if (end < n && same(start, end)) {
                set(start++, false);
                set(end++, true);
                while (at(end)) {
                    end++;
                }
                return true;
            }
            return false;
        }

        boolean slideUp() {
            if (start > 0 && same(start - 1, end - 1)) {
                set(--start, true);
                set(--end, false);
                while (at(start - 1)) {
                    start--;
                }
                return true;
            }
            return false;
        }

        boolean empty() {
            return start == end;
        }

        private boolean same(int i, int j) {
            return RawTextComparator.DEFAULT.equals(text, i, text, j);
        }
    }

    private static void compact(Side x, Side other) {
        x.first();
        other.first();
        while (true) {
            if (!x.empty()) {
                int size;
                int earliestEnd;
                int endMatchingOther;
                do {
                    size = x.end - x.start;
                    endMatchingOther = -1;
                    while (x.slideUp()) {
                        sync(other.previous());
                    }
                    earliestEnd = x.end;
                    if (!other.empty()) {
                        endMatchingOther = x.end;
                    }
                    while (x.slideDown()) {
                        sync(other.next());
                        if (!other.empty()) {
                            endMatchingOther = x.end;
                        }
                    }
                } while (size != x.end - x.start);
                if (x.end != earliestEnd && endMatchingOther != -1) {
                    while (other.empty()) {
                        sync(x.slideUp());
                        sync(other.previous());
                    }
                }
            }
            if (!x.next()) {
                break;
            }
            sync(other.next());
        }
    }

    private static void sync(boolean moved) {
        if (!moved) {
            throw new IllegalStateException("change groups of the two sides went out of step");
        }
    }

    /** Rebuilds the edit list from the change marks (xdiff's build_script, in ascending order). */
    private static EditList script(boolean[] ca, int na, boolean[] cb, int nb) {
        EditList out = new EditList();
        int i = 0;
        int j = 0;
        while (i < na || j < nb) {
            if ((i < na && ca[i + 1]) || (j < nb && cb[j + 1])) {
                int bi = i;
                int bj = j;
                while (i < na && ca[i + 1]) {
                    i++;
                }
                while (j < nb && cb[j + 1]) {
                    j++;
                }
                out.add(new Edit(bi, i, bj, j));
            } else {
                i++;
                j++;
            }
        }
        return out;
    }
}
