package io.commitflow.git;

import java.nio.charset.StandardCharsets;

/**
 * git's C-style quoting of paths in patches ({@code quote_c_style} with {@code core.quotePath=true}): a path is
 * put in double quotes only when it holds a control character, {@code "}, {@code \} or a non-ASCII byte, which
 * are escaped ({@code \t}, {@code \"}, {@code \303\251}). Spaces and brackets stay as they are, unlike JGit's
 * quoting.
 */
final class GitQuote {
    private GitQuote() {}

    static String path(String path) {
        byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        boolean quote = false;
        for (byte b : bytes) {
            if (mustQuote(b & 0xff)) {
                quote = true;
                break;
            }
        }
        if (!quote) {
            return path;
        }
        StringBuilder s = new StringBuilder(bytes.length + 8).append('"');
        for (byte x : bytes) {
            int c = x & 0xff;
            if (!mustQuote(c)) {
                s.append((char) c);
                continue;
            }
            s.append('\\');
            switch (c) {
                case 0x07 -> s.append('a');
                case 0x08 -> s.append('b');
                case 0x09 -> s.append('t');
                case 0x0a -> s.append('n');
                case 0x0b -> s.append('v');
                case 0x0c -> s.append('f');
                case 0x0d -> s.append('r');
                case '"' -> s.append('"');
                case '\\' -> s.append('\\');
                default -> s.append(String.format("%03o", c));
            }
        }
        return s.append('"').toString();
    }

    private static boolean mustQuote(int c) {
        return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f;
    }
}
