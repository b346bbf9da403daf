package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tokens of a commit message as B-Norm counts them: lowercased, words of letters, digits and underscores, and
 * every other non-space character a token of its own ({@code "fix(core): don't"} is
 * {@code fix ( core ) : don ' t}).
 */
public final class MessageTokens {
    private MessageTokens() {}

    public static List<String> of(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            int cp = s.codePointAt(i);
            int len = Character.charCount(cp);
            if (Character.isWhitespace(cp)) {
                i += len;
            } else if (isWord(cp)) {
                int j = i;
                while (j < n && isWord(s.codePointAt(j))) {
                    j += Character.charCount(s.codePointAt(j));
                }
                out.add(s.substring(i, j));
                i = j;
            } else {
                out.add(s.substring(i, i + len));
                i += len;
            }
        }
        return out;
    }

    private static boolean isWord(int cp) {
        return Character.isLetterOrDigit(cp) || cp == '_';
    }
}
