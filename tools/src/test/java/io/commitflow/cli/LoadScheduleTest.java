package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.git.GitFixture;
import io.commitflow.git.History;
import io.commitflow.replay.Events;
import io.commitflow.replay.RateProfile;
import io.commitflow.replay.Replayer;
import org.eclipse.jgit.internal.storage.file.ObjectDirectory;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a load test sends: the copies it needs, their round-robin, and new repositories joining at a step. */
class LoadScheduleTest {
    private static final List<History.Commit> HISTORY = history(10);

    @Test
    void replaysTheHistoryRoundRobinOverEnoughCopiesThatDedupDropsNothing() {
        // 10 + 20 events of a history of 10: three copies over two tenants
        LoadSchedule s = LoadSchedule.plan(HISTORY, Events.Mode.COMMIT, 3, RateProfile.parse("steps:10,20/1s"), false, 0, 2, 0);

        assertThat(s.copies()).extracting(LoadSchedule.Copy::name).containsExactly("t0-r0.git", "t1-r1.git", "t0-r2.git");
        assertThat(s.copies()).extracting(LoadSchedule.Copy::tenant).containsExactly("tenant-0", "tenant-1", "tenant-0");
        List<String[]> events = decode(s.events("events"));
        assertThat(events).hasSize(30);
        for (int i = 0; i < 30; i++) {
            assertThat(events.get(i)[0]).isEqualTo(s.copies().get(i % 3).name());
            assertThat(events.get(i)[1]).as("each copy replays the history oldest first").isEqualTo(HISTORY.get(i / 3).sha());
        }
        assertThat(s.newTenants()).isEmpty();
    }

    @Test
    void newRepositoriesOfANewTenantJoinAtEachStepAfterTheFirstMeasuredOne() {
        // a backlog of 4 and a warm-up of 5 events, then steps of 10, 20, 30: new copies join at steps 2 and 3 of the
        // profile with its warm-up (the warm-up and the first measured step have none)
        RateProfile profile = RateProfile.parse("steps:10,20,30/1s").withWarmup(0.5);
        LoadSchedule s = LoadSchedule.plan(HISTORY, Events.Mode.COMMIT, 3, profile, true, 4, 2, 2);

        assertThat(s.newTenants()).isEqualTo(Map.of(2, "tenant-2", 3, "tenant-3"));
        List<LoadSchedule.Copy> joining = s.copies().stream().filter(c -> c.joinsAtStep() > 0).toList();
        assertThat(joining).extracting(LoadSchedule.Copy::tenant).containsExactly("tenant-2", "tenant-2", "tenant-3", "tenant-3");
        List<String[]> events = decode(s.events("events"));
        assertThat(events).hasSize(4 + 5 + 10 + 20 + 30);
        int step2 = 4 + 5 + 10;
        int step3 = step2 + 20;
        for (LoadSchedule.Copy c : joining) {
            int first = firstIndexOf(events, c.name());
            assertThat(first).as(c.name()).isBetween(c.joinsAtStep() == 2 ? step2 : step3,
                    (c.joinsAtStep() == 2 ? step2 : step3) + s.copies().size());
            assertThat(events.get(first)[1]).as("a new repository starts at its history's first commit")
                    .isEqualTo(HISTORY.get(0).sha());
        }
        assertThat(events.stream().map(e -> e[0] + " " + e[1]).distinct().count()).as("no event twice").isEqualTo(events.size());
    }

    @Test
    void eachCopyReadsTheOriginalsPacksAsItsOwnAndItsLooseObjectsThroughAlternates(@TempDir Path tmp) throws Exception {
        List<ObjectId> commits = new ArrayList<>();
        Path objects;
        try (GitFixture f = new GitFixture(tmp, "original.git")) {
            RevCommit c = null;
            for (int i = 0; i < 3; i++) {
                c = f.git.commit().parent(c).add("a.txt", GitFixture.lines(10 + i, "a")).message("packed " + i).create();
                commits.add(c);
            }
            f.git.packAndPrune();
            commits.add(f.git.commit().parent(c).add("b.txt", "loose\n").message("loose").create());
            objects = ((ObjectDirectory) f.repo.getObjectDatabase()).getDirectory().toPath();
        }
        List<Path> packs;
        try (var files = Files.list(objects.resolve("pack"))) {
            packs = files.filter(p -> p.getFileName().toString().startsWith("pack-")).sorted().toList();
        }
        assertThat(packs).as("the fixture packed its first commits").isNotEmpty();
        LoadSchedule s = LoadSchedule.plan(history(10), Events.Mode.COMMIT, 3, RateProfile.parse("steps:20/1s"), false, 0, 2, 0);
        Path mirrors = Files.createDirectories(tmp.resolve("mirrors"));

        assertThat(s.makeCopies(objects, mirrors)).as("one file system: hard links").isEqualTo("hard links");

        for (LoadSchedule.Copy copy : s.copies()) {
            Path dir = mirrors.resolve(copy.name());
            for (Path pack : packs) {
                Path linked = dir.resolve("objects/pack").resolve(pack.getFileName());
                assertThat(Files.getAttribute(linked, "unix:ino")).as("%s is the original's file", linked)
                        .isEqualTo(Files.getAttribute(pack, "unix:ino"));
            }
            try (Repository r = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build();
                 var reader = r.newObjectReader()) {
                for (ObjectId id : commits) {
                    assertThat(reader.open(id).getType()).as("%s in %s", id.name(), copy.name()).isEqualTo(Constants.OBJ_COMMIT);
                }
            }
        }
    }

    private static int firstIndexOf(List<String[]> events, String repo) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i)[0].equals(repo)) {
                return i;
            }
        }
        return -1;
    }

    /** Each event's repository (its key) and commit. */
    private static List<String[]> decode(List<Replayer.Event> events) {
        List<String[]> out = new ArrayList<>();
        for (Replayer.Event e : events) {
            try {
                JsonNode v = Json.mapper().readTree(e.value(0));
                out.add(new String[] {new String(e.key(), StandardCharsets.UTF_8), v.path("sha").asText()});
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }
        return out;
    }

    private static List<History.Commit> history(int n) {
        List<History.Commit> commits = new ArrayList<>();
        String parent = null;
        for (int i = 0; i < n; i++) {
            String sha = String.format("%040x", i + 1);
            commits.add(new History.Commit(sha, parent == null ? List.of() : List.of(parent), "a <a@example.com>", 1000L * i,
                    "change " + i));
            parent = sha;
        }
        return commits;
    }
}
