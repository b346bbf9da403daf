package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;

/** A repository's memory on the CPU engine, and a request's {@link Composition} as the generator makes it. */
final class Rules implements AutoCloseable {
    final CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION);
    final RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
    final RetrievalGenerator generator = new RetrievalGenerator();

    /** Learns {@code d} with its message, as the suggest stage does (and the ranker's lesson first). */
    Rules learn(DiffedCommit d) {
        DiffFeatures f = DiffFeatures.of(d);
        generator.observe(d, f, memory, memory.vector(f.terms()), d.commit().message());
        memory.learn(d, f, memory.vector(f.terms()), d.commit().message());
        return this;
    }

    Composition composition(DiffedCommit d) {
        DiffFeatures f = DiffFeatures.of(d);
        return generator.composition(d, f, memory, memory.vector(f.terms()), null);
    }

    /** {@code d} with {@code patch} in place of its own. */
    static DiffedCommit withPatch(DiffedCommit d, String patch) {
        return DiffedCommit.of(d.commit(), d.files(), 1, patch, "", "mirror", null);
    }

    @Override
    public void close() {
        engine.close();
    }
}
