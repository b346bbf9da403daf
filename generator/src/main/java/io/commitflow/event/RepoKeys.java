package io.commitflow.event;

/**
 * Whose names repository names are, and so what keys a repository's keyed state (dedup, memory, result cache, pushes
 * waiting for the mirror) and its mirror folder have.
 *
 * <ul>
 *   <li>{@link #GLOBAL}: a deployment whose topics every tenant shares. Its writers are trusted to name their tenant,
 *   so a name is one repository whoever names it: key {@code repo}, mirror {@code root/repo}. Savepoints of earlier
 *   versions keep their keys.</li>
 *   <li>{@link #PER_TENANT}: each tenant has topics of its own ({@link Tenants}), so the tenant is proven by where the
 *   record came from, and each tenant's names are its own: key {@code tenant/repo}, mirror {@code root/tenant/repo}.
 *   Two tenants' {@code app} are two repositories with two memories and two caches, and neither can name the
 *   other's.</li>
 * </ul>
 */
public enum RepoKeys {
    GLOBAL,
    PER_TENANT;

    /** The key of a tenant's repository. A tenant's name has no {@code /}: the first one splits the key again. */
    public String of(String tenant, String repo) {
        return this == PER_TENANT ? tenant + '/' + repo : repo;
    }

    public String of(CommitEvent c) {
        return of(c.tenant(), c.repo());
    }

    public String of(PushEvent p) {
        return of(p.tenant(), p.repo());
    }

    /** The dedup key: the same commit of the same repository, whichever push delivered it. */
    public String commit(CommitEvent c) {
        return of(c) + '\u0000' + c.sha();
    }

    /** The keys of a deployment whose events topic is {@code eventsTopic}. */
    public static RepoKeys forTopic(String eventsTopic) {
        return Tenants.perTenant(eventsTopic) ? PER_TENANT : GLOBAL;
    }
}
