package io.commitflow.job;

import io.commitflow.event.RepoKeys;

/**
 * Everything the job needs: Kafka and the pipeline's settings. Immutable. Where each tenant has topics of its own,
 * each tenant's repository names are its own ({@link RepoKeys#PER_TENANT}: keys {@code tenant/repo}, mirrors at
 * {@code root/tenant/repo}); else they are global.
 */
public record JobParameters(KafkaSettings kafka, PipelineSettings pipeline) {
    public JobParameters {
        pipeline = pipeline.withKeys(RepoKeys.forTopic(kafka.eventsTopic()));
    }
}
