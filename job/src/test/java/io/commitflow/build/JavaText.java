package io.commitflow.build;

/** Java source text split into its comments and the rest, for the build's checks on sources. */
final class JavaText {
    private JavaText() {}

    /**
     * The comments of {@code s} ({@code comments}) or everything else; what is left out becomes spaces (a block
     * comment one space), line breaks are kept. String, text-block and character literals are code.
     */
    static String split(String s, boolean comments) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            boolean comment;
            if (c == '"' && s.startsWith("\"\"\"", i)) {
                end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? s.length() : end + 3;
                comment = false;
            } else if (c == '"' || c == '\'') {
                end = i + 1;
                while (end < s.length() && s.charAt(end) != c) {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, s.length());
                comment = false;
            } else if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
                comment = true;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                comment = true;
            } else {
                end = i + 1;
                comment = false;
            }
            if (comment == comments) {
                out.append(s, i, end);
            } else if (comment && s.startsWith("/*", i)) {
                out.append(' ');
            } else if (!comment) {
                for (int k = i; k < end; k++) {
                    out.append(s.charAt(k) == '\n' ? '\n' : ' ');
                }
            }
            i = end;
        }
        return out.toString();
    }
}
