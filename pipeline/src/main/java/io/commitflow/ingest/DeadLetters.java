package io.commitflow.ingest;

import io.commitflow.event.DeadLetter;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/** The side output that every stage writes its rejects to; the job unions them into the DLQ sink. */
public final class DeadLetters {
    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private DeadLetters() {}
}
