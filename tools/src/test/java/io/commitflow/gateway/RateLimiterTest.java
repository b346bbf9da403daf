package io.commitflow.gateway;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimiterTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final RateLimiter limiter = new RateLimiter(2, 3, now::get); // 2 a second, 3 at once

    @Test
    void aBurstPassesThenTheRateAndEachCallerHasItsOwnBucket() {
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.acquire("k1")).as("request %d of the burst", i).isZero();
        }
        Duration wait = limiter.acquire("k1");
        assertThat(wait).as("a token comes every 500 ms").isEqualTo(Duration.ofMillis(500));
        assertThat(RateLimiter.retryAfterSeconds(wait)).isEqualTo(1);
        assertThat(limiter.acquire("k2")).as("another key's bucket is full").isZero();

        now.addAndGet(Duration.ofMillis(250).toNanos());
        assertThat(limiter.acquire("k1")).as("half a token is there").isEqualTo(Duration.ofMillis(250));
        now.addAndGet(Duration.ofMillis(250).toNanos());
        assertThat(limiter.acquire("k1")).isZero();
        assertThat(limiter.acquire("k1")).isPositive();

        now.addAndGet(Duration.ofHours(1).toNanos());
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.acquire("k1")).as("refilled up to the burst, no more").isZero();
        }
        assertThat(limiter.acquire("k1")).isPositive();
    }

    @Test
    void retryAfterRoundsUpToWholeSecondsAndTheSettingsAreChecked() {
        assertThat(RateLimiter.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(RateLimiter.retryAfterSeconds(Duration.ofMillis(2001))).isEqualTo(3);
        assertThat(RateLimiter.retryAfterSeconds(Duration.ofSeconds(2))).isEqualTo(2);
        RateLimiter slow = new RateLimiter(0.1, 1, now::get);
        assertThat(slow.acquire("k")).isZero();
        assertThat(RateLimiter.retryAfterSeconds(slow.acquire("k"))).isEqualTo(10);
        assertThatThrownBy(() -> new RateLimiter(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateLimiter(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
