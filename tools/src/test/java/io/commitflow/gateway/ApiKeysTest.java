package io.commitflow.gateway;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApiKeysTest {
    private static final String A1 = "key-of-tenant-a-0001";
    private static final String A2 = "key-of-tenant-a-0002";
    private static final String B = "key-of-tenant-b-0001";

    @Test
    void aKeyNamesItsTenantWhetherTheFileHoldsItOrItsHash() {
        ApiKeys keys = ApiKeys.parse("""
                # tenant:key
                a:%s
                a:%s

                b:%s
                """.formatted(A1, ApiKeys.hash(A2), B), "keys.txt");
        assertThat(keys.tenantOf(A1)).contains("a");
        assertThat(keys.tenantOf(A2)).as("the file holds its hash alone").contains("a");
        assertThat(keys.tenantOf(B)).contains("b");
        assertThat(keys.tenantOf(B + "x")).isEmpty();
        assertThat(keys.tenantOf("")).isEmpty();
        assertThat(keys.tenantOf(null)).isEmpty();
        assertThat(keys.tenantOf(ApiKeys.hash(A2))).as("the hash is no key").isEmpty();
        assertThat(keys.tenants()).containsExactly("a", "b");
        assertThat(keys.size()).isEqualTo(3);
        assertThat(ApiKeys.hash(A1)).matches("sha256:[0-9a-f]{64}");
        assertThat(ApiKeys.id(A1)).hasSize(16).doesNotContain(A1);
    }

    @Test
    void anEnvironmentVariableMayHoldTheEntriesOnOneLineAndAddsToTheFile() {
        ApiKeys file = ApiKeys.parse("a:" + A1, "keys.txt");
        ApiKeys env = ApiKeys.parse("b:" + B + "  a:" + A2, "--api-keys-env KEYS");
        ApiKeys both = file.and(env);
        assertThat(both.tenantOf(A2)).contains("a");
        assertThat(both.tenantOf(B)).contains("b");
        assertThatThrownBy(() -> file.and(ApiKeys.parse("b:" + A1, "--api-keys-env KEYS")))
                .hasMessageContaining("--api-keys-env KEYS line 1").hasMessageContaining("keys.txt line 1")
                .hasMessageNotContaining(A1);
    }

    @Test
    void badEntriesAreRefusedWithTheirLineAndWithoutTheKey() {
        assertThatThrownBy(() -> ApiKeys.parse("a:" + A1 + "\nb:" + A1, "k"))
                .hasMessageContaining("k line 2").hasMessageContaining("a key names one tenant").hasMessageNotContaining(A1);
        assertThatThrownBy(() -> ApiKeys.parse("a:" + A1 + "\nb:" + ApiKeys.hash(A1), "k"))
                .as("the same key, once hashed").hasMessageContaining("k line 2");
        assertThatThrownBy(() -> ApiKeys.parse("a:tooshort", "k"))
                .hasMessageContaining("k line 1").hasMessageContaining("at least 16").hasMessageNotContaining("tooshort");
        assertThatThrownBy(() -> ApiKeys.parse("\n\n" + A1, "k")).hasMessageContaining("k line 3").hasMessageContaining("no ':'");
        assertThatThrownBy(() -> ApiKeys.parse("a/b:" + A1, "k")).hasMessageContaining("not a tenant's name");
        assertThatThrownBy(() -> ApiKeys.parse("a:sha256:abc", "k")).hasMessageContaining("64 hex digits");
    }
}
