package io.commitflow.job;

/** Everything the job needs: Kafka and the pipeline's settings. Immutable. */
public record JobParameters(KafkaSettings kafka, PipelineSettings pipeline) {}
