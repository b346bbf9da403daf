package io.commitflow.cache;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

import java.nio.ByteBuffer;

/**
 * LZ4 block compression of cache values, with the original length in front. The pure-Java implementation, so that
 * no native library is unpacked into the TaskManager's temporary folder.
 */
public final class Lz4 {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestJavaInstance();
    private static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    private static final LZ4FastDecompressor DECOMPRESSOR = FACTORY.fastDecompressor();
    /** Values larger than this are refused when read back: a corrupt length must not allocate gigabytes. */
    static final int MAX_VALUE_BYTES = 64 << 20;

    private Lz4() {}

    public static byte[] compress(byte[] raw) {
        int max = COMPRESSOR.maxCompressedLength(raw.length);
        byte[] out = new byte[4 + max];
        ByteBuffer.wrap(out).putInt(raw.length);
        int n = COMPRESSOR.compress(raw, 0, raw.length, out, 4, max);
        return java.util.Arrays.copyOf(out, 4 + n);
    }

    public static byte[] decompress(byte[] packed) {
        if (packed.length < 4) {
            throw new IllegalArgumentException("not an LZ4 cache value: " + packed.length + " bytes");
        }
        int length = ByteBuffer.wrap(packed).getInt();
        if (length < 0 || length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("not an LZ4 cache value: length " + length);
        }
        byte[] out = new byte[length];
        DECOMPRESSOR.decompress(packed, 4, out, 0, length);
        return out;
    }
}
