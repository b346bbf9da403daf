package io.commitflow.push;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.DeadLetters;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Reason;
import io.commitflow.git.MirrorRoot;
import io.commitflow.git.Mirrors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Expands pushes into commits with {@link PushExpander}. Keyed by repository ({@link #KEY}) so that the
 * pushes of one repository are expanded in order by one instance. Pushes that cannot be expanded go to
 * {@link DeadLetters#TAG}. Keeps no Flink state.
 *
 * <p>Metrics (counts): {@code pushesExpanded}, {@code commitsFromPushes}, {@code refsDeleted},
 * {@code metadataRefsSkipped} (updates of refs that hold server metadata, see {@link PushEvent#metadataRef()}).
 */
public class ExpandPushes extends KeyedProcessFunction<String, PushEvent, CommitEvent> {
    private static final long serialVersionUID = 1L;

    public static final KeySelector<PushEvent, String> KEY = new Repo();

    private final String mirrorRoot;
    private transient Mirrors mirrors;
    private transient PushExpander expander;
    private transient Counter pushes;
    private transient Counter commits;
    private transient Counter deletions;
    private transient Counter metadata;

    /** @param mirrorRoot the directory holding the mirrors, or {@code null}: then every push is a dead letter */
    public ExpandPushes(String mirrorRoot) {
        this.mirrorRoot = mirrorRoot;
    }

    @Override
    public void open(OpenContext openContext) {
        mirrors = mirrorRoot == null ? null : new Mirrors(new MirrorRoot(Path.of(mirrorRoot)), 64);
        expander = new PushExpander();
        var metrics = getRuntimeContext().getMetricGroup();
        pushes = metrics.counter("pushesExpanded");
        commits = metrics.counter("commitsFromPushes");
        deletions = metrics.counter("refsDeleted");
        metadata = metrics.counter("metadataRefsSkipped");
    }

    @Override
    public void processElement(PushEvent push, Context ctx, Collector<CommitEvent> out) {
        if (push.deletesRef()) {
            deletions.inc();
            return;
        }
        if (push.metadataRef()) {
            metadata.inc();
            return;
        }
        try {
            if (mirrors == null) {
                throw new InvalidEventException(Reason.NO_DIFF_SOURCE, "a push needs a mirror, and the job has no mirror root");
            }
            commits.inc(expander.expand(mirrors.open(push.repo()), push, out::collect));
            pushes.inc();
        } catch (InvalidEventException e) {
            ctx.output(DeadLetters.TAG, DeadLetter.of(push, e.reason(), e.getMessage(), "expand"));
        } catch (IOException | RuntimeException e) {
            ctx.output(DeadLetters.TAG, DeadLetter.of(push, Reason.GIT_ERROR,
                    "expanding the push to " + push.ref() + " failed: " + e, "expand"));
        }
    }

    @Override
    public void close() {
        if (mirrors != null) {
            mirrors.close();
        }
    }

    private static final class Repo implements KeySelector<PushEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(PushEvent push) {
            return push.repo();
        }
    }
}
