package io.commitflow.git;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Repository;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tells a commit that is missing from a mirror from one that a damaged mirror cannot read. When JGit meets a corrupt
 * pack (truncated, or its checksum no longer matches its index) it logs the error, drops the pack from its list and
 * answers every object in it as missing. Without this check such a commit would wait for the mirror to fetch it (as
 * an {@code UNKNOWN_COMMIT}) and be given up as "not in the mirror", sending whoever reads the dead letter after a
 * fetch that never lagged.
 *
 * <p>The check is git's own: a pack ends with the checksum of its content, and its index repeats that checksum; a
 * pack whose last 20 bytes differ from its index's record (or that is too short to hold them) is corrupt. It reads
 * 40 bytes per pack, and only after a lookup failed. JGit's list of the packs it gave up on is not public, and it
 * is rebuilt whenever the pack directory changes, so this reads the files.
 *
 * <p>It also refuses 64-digit (SHA-256) ids, which JGit cannot look up at all ({@link #checkIdLength}).
 */
public final class MirrorDamage {
    private static final int CHECKSUM = 20;
    /** "PACK", version, object count. */
    private static final int PACK_HEADER = 12;

    private MirrorDamage() {}

    /** The names of {@code repo}'s pack files whose content does not match their index; empty when none. */
    public static List<String> corruptPacks(Repository repo) {
        // alternates are not looked at: a mirror has none
        File[] files = repo.getDirectory() == null ? null : new File(repo.getDirectory(), "objects/pack").listFiles();
        List<String> corrupt = new ArrayList<>();
        if (files == null) {
            return corrupt;
        }
        for (File pack : files) {
            String name = pack.getName();
            File idx = new File(pack.getParentFile(), name.substring(0, Math.max(0, name.length() - 5)) + ".idx");
            if (name.startsWith("pack-") && name.endsWith(".pack") && idx.isFile() && !matchesIndex(pack, idx)) {
                corrupt.add(name);
            }
        }
        corrupt.sort(null);
        return corrupt;
    }

    private static boolean matchesIndex(File pack, File idx) {
        try (RandomAccessFile p = new RandomAccessFile(pack, "r"); RandomAccessFile i = new RandomAccessFile(idx, "r")) {
            if (p.length() < PACK_HEADER + CHECKSUM || i.length() < 2 * CHECKSUM) {
                return false;
            }
            byte[] packSum = new byte[CHECKSUM];
            byte[] indexed = new byte[CHECKSUM];
            p.seek(p.length() - CHECKSUM);
            p.readFully(packSum);
            i.seek(i.length() - 2 * CHECKSUM); // the index ends with the pack's checksum, then its own
            i.readFully(indexed);
            return Arrays.equals(packSum, indexed);
        } catch (FileNotFoundException e) {
            return true; // removed meanwhile (a gc): gone, not corrupt
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code ""}, or why objects of {@code repo} may be unreadable rather than absent, for a dead letter's detail. */
    public static String describe(Repository repo) {
        List<String> packs = corruptPacks(repo);
        return packs.isEmpty() ? "" : "the mirror has " + packs.size() + " corrupt pack file(s), whose content does not match their index: "
                + String.join(", ", packs.size() > 3 ? packs.subList(0, 3) : packs) + (packs.size() > 3 ? ", …" : "");
    }

    /**
     * Refuses a 64-digit (SHA-256) id before JGit sees it: JGit reads SHA-1 repositories only, and its
     * {@code ObjectId.fromString} would throw an unchecked exception that reads like a broken mirror.
     */
    public static void checkIdLength(String field, String sha, String repo) throws InvalidEventException {
        if (sha.length() != Constants.OBJECT_ID_STRING_LENGTH) {
            throw new InvalidEventException(Reason.INVALID_FIELD, field + " " + sha + " has " + sha.length()
                    + " hex digits (SHA-256), and the mirror of " + repo + " is read as a SHA-1 repository");
        }
    }
}
