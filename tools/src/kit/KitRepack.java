import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Repacks jars for the host kit: every entry stored (not deflated), so that xz compresses the class bytes
 * themselves, with jars nested in a jar repacked the same way, and the native libraries of other platforms
 * than Linux x86-64 with glibc left out. Entry bytes, names, order and times are kept, so a signed jar's
 * signature still verifies.
 *
 * <pre>{@code
 * java tools/src/kit/KitRepack.java OUT_DIR a.jar b.jar …   # writes OUT_DIR/a.jar, OUT_DIR/b.jar; one line per jar
 * }</pre>
 *
 * Run by tools/host-kit.sh with the build's JDK (a single-file source program: no build step of its own).
 */
public final class KitRepack {
    private static final Pattern NATIVE = Pattern.compile("(?i)\\.(so(\\.[0-9]+)*|dll|dylib|jnilib|a)$");
    /** A native library's path or name that names another OS, C library or CPU than Linux x86-64 with glibc. */
    private static final Pattern FOREIGN = Pattern.compile("(?i)(osx|macos|mac/|darwin|windows|win32|win64|win/|"
            + "\\.dll$|\\.dylib$|\\.jnilib$|aix|freebsd|sunos|android|musl|aarch|arm|ppc|s390|riscv|loongarch|mips|"
            + "i386|/x86/|linux32|sparc)");

    private KitRepack() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: java KitRepack.java OUT_DIR JAR...");
            System.exit(2);
        }
        Path out = Files.createDirectories(Path.of(args[0]));
        for (String a : Arrays.asList(args).subList(1, args.length)) {
            Path in = Path.of(a);
            Path target = out.resolve(in.getFileName().toString());
            List<String> dropped = new ArrayList<>();
            byte[] repacked;
            try (ZipFile z = new ZipFile(in.toFile())) {
                ByteArrayOutputStream b = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, Files.size(in) * 3));
                try (ZipOutputStream zos = new ZipOutputStream(b)) {
                    Set<String> seen = new HashSet<>();
                    for (ZipEntry e : z.stream().toList()) {
                        try (InputStream s = z.getInputStream(e)) {
                            copy(e, s.readAllBytes(), zos, seen, dropped);
                        }
                    }
                }
                repacked = b.toByteArray();
            }
            if (Files.exists(target) && !Arrays.equals(Files.readAllBytes(target), repacked)) {
                throw new IllegalStateException("two different jars named " + target.getFileName());
            }
            Files.write(target, repacked);
            System.out.printf(Locale.ROOT, "%-60s %9d -> %9d bytes%s%n", target.getFileName(), Files.size(in), repacked.length,
                    dropped.isEmpty() ? "" : "; left out " + dropped.size() + " native libraries of other platforms");
        }
    }

    /** Writes one entry stored; a nested jar is repacked first, a foreign native library is left out. */
    private static void copy(ZipEntry e, byte[] data, ZipOutputStream zos, Set<String> seen, List<String> dropped)
            throws IOException {
        String name = e.getName();
        if (!seen.add(name)) {
            return; // a duplicate entry: the first one is what a class loader sees
        }
        if (!e.isDirectory() && NATIVE.matcher(name).find() && FOREIGN.matcher(name).find()) {
            dropped.add(name);
            return;
        }
        if (!e.isDirectory() && name.endsWith(".jar")) {
            data = nested(data, dropped);
        }
        ZipEntry s = new ZipEntry(name);
        s.setMethod(ZipEntry.STORED);
        s.setTime(e.getTime());
        if (e.getComment() != null) {
            s.setComment(e.getComment());
        }
        if (e.getExtra() != null) {
            s.setExtra(e.getExtra());
        }
        CRC32 crc = new CRC32();
        crc.update(data);
        s.setSize(data.length);
        s.setCompressedSize(data.length);
        s.setCrc(crc.getValue());
        zos.putNextEntry(s);
        zos.write(data);
        zos.closeEntry();
    }

    private static byte[] nested(byte[] jar, List<String> dropped) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(jar.length * 3);
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(jar));
             ZipOutputStream zos = new ZipOutputStream(b)) {
            Set<String> seen = new HashSet<>();
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                copy(e, in.readAllBytes(), zos, seen, dropped);
            }
        }
        return b.toByteArray();
    }

}
