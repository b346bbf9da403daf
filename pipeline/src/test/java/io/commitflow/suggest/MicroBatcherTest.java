package io.commitflow.suggest;

import io.commitflow.gpu.Tier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Batches fill to their size or leave after the wait; gold goes first; nothing is served before the start. */
class MicroBatcherTest {
    private record Batch(Tier tier, List<Integer> items) {}

    @Test
    void aFullBatchLeavesAtOnceAndTheRestAfterTheWait() throws Exception {
        LinkedBlockingQueue<Batch> out = new LinkedBlockingQueue<>();
        try (var b = new MicroBatcher<Integer>("t", 1, 4, TimeUnit.MILLISECONDS.toNanos(300),
                (tier, items) -> out.add(new Batch(tier, items)))) {
            b.start();
            for (int i = 0; i < 6; i++) {
                b.submit(Tier.SILVER, i);
            }
            Batch first = out.poll(5, TimeUnit.SECONDS);
            assertThat(first.items()).containsExactly(0, 1, 2, 3);
            assertThat(out.poll(100, TimeUnit.MILLISECONDS)).as("two left: they wait for more").isNull();
            assertThat(out.poll(5, TimeUnit.SECONDS).items()).containsExactly(4, 5);
        }
    }

    @Test
    void goldIsServedBeforeSilverAndBronzeAndBatchesKeepOneTier() throws Exception {
        LinkedBlockingQueue<Batch> out = new LinkedBlockingQueue<>();
        try (var b = new MicroBatcher<Integer>("t", 1, 2, 0, (tier, items) -> out.add(new Batch(tier, items)))) {
            b.submit(Tier.BRONZE, 1);
            b.submit(Tier.SILVER, 2);
            b.submit(Tier.BRONZE, 3);
            b.submit(Tier.GOLD, 4);
            b.submit(Tier.SILVER, 5);
            assertThat(out.poll(100, TimeUnit.MILLISECONDS)).as("not started").isNull();
            b.start();
            List<Batch> got = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                got.add(out.poll(5, TimeUnit.SECONDS));
            }
            assertThat(got).containsExactly(new Batch(Tier.GOLD, List.of(4)), new Batch(Tier.SILVER, List.of(2, 5)),
                    new Batch(Tier.BRONZE, List.of(1, 3)));
        }
    }

    @Test
    void aRequestTakenBackIsNotServed() throws Exception {
        LinkedBlockingQueue<Batch> out = new LinkedBlockingQueue<>();
        try (var b = new MicroBatcher<Integer>("t", 1, 10, TimeUnit.MILLISECONDS.toNanos(200),
                (tier, items) -> out.add(new Batch(tier, items)))) {
            b.start();
            b.submit(Tier.SILVER, 1);
            b.submit(Tier.SILVER, 2);
            assertThat(b.remove(x -> x == 1)).isTrue();
            assertThat(b.remove(x -> x == 9)).isFalse();
            assertThat(b.queued()).isEqualTo(1);
            assertThat(out.poll(5, TimeUnit.SECONDS).items()).containsExactly(2);
        }
    }
}
