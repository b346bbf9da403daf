package io.commitflow.gpu;

import java.nio.ByteBuffer;

/**
 * What {@link CudaEngine} needs from a device: memory, pinned host buffers, prioritised streams, copies and kernel
 * launches. {@link JCudaGpu} is the real one (the CUDA driver API through JCuda); tests use a simulated device that
 * runs the same calls in Java, so the engine's bookkeeping is tested on machines without a GPU.
 *
 * <p>Copies and launches are asynchronous on their stream; {@link #synchronize} waits for a stream's work. Every method
 * may be called from any thread after {@link #bind()} on that thread.
 */
interface Gpu extends AutoCloseable {
    /** Device memory. */
    interface Mem {
        long bytes();
    }

    /** Page-locked host memory for asynchronous copies; {@link #buffer()} is in native byte order. */
    interface Pinned {
        ByteBuffer buffer();

        long bytes();
    }

    /** A stream and the priority the device gave it. */
    interface Stream {
        int priority();
    }

    /** A point in a stream's queued work (a CUDA event without timing). */
    interface Event {
    }

    /** Makes this device's context current on the calling thread. */
    void bind();

    /** {@code {least, greatest}} stream priority; CUDA's greatest is numerically lowest (e.g. {@code {0, -5}}). */
    int[] streamPriorityRange();

    Stream createStream(int priority);

    Mem alloc(long bytes);

    Pinned allocPinned(long bytes);

    void upload(Mem dst, long dstOffset, Pinned src, long srcOffset, long bytes, Stream stream);

    void download(Pinned dst, long dstOffset, Mem src, long srcOffset, long bytes, Stream stream);

    /** Launches {@code kernel} on a {@code gridX} x {@code gridY} grid of {@link Kernel#threads}-thread blocks. */
    void launch(Kernel kernel, int gridX, int gridY, Stream stream, Object... args);

    void synchronize(Stream stream);

    Event createEvent();

    /** Marks the point of the work queued on {@code stream} so far (cuEventRecord). */
    void record(Event event, Stream stream);

    /**
     * Work queued on {@code stream} after this call waits, on the device, until {@code event}'s last recorded point
     * is reached (cuStreamWaitEvent); the host does not wait.
     */
    void await(Stream stream, Event event);

    /** Waits on the host until {@code event}'s last recorded point is reached. */
    void synchronize(Event event);

    void destroy(Event event);

    void free(Mem mem);

    void free(Pinned pinned);

    void destroy(Stream stream);

    /** Unloads the kernels and lets go of the context. */
    @Override
    void close();
}
