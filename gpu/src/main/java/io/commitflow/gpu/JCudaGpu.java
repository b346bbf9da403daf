package io.commitflow.gpu;

import jcuda.CudaException;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * {@link Gpu} on the CUDA driver API through JCuda: the device's primary context (shared with every other user in the
 * process, retained here and released on {@link #close}), the kernels loaded from the {@code retrieval.ptx}
 * resource, and every CUDA error turned into a {@link GpuException} naming the call. Only this class and
 * {@link #probe()} touch JCuda, so the rest of the module loads without it.
 */
final class JCudaGpu implements Gpu {
    static final String PTX_RESOURCE = "retrieval.ptx";

    private final CUdevice device;
    private final CUcontext context;
    private final CUmodule module;
    private final Map<Kernel, CUfunction> functions = new EnumMap<>(Kernel.class);
    private boolean closed;

    private JCudaGpu(CUdevice device, CUcontext context, CUmodule module) {
        this.device = device;
        this.context = context;
        this.module = module;
        for (Kernel k : Kernel.values()) {
            CUfunction f = new CUfunction();
            call("cuModuleGetFunction(" + k.entry + ")", () -> JCudaDriver.cuModuleGetFunction(f, module, k.entry));
            functions.put(k, f);
        }
    }

    /**
     * Retains device {@code ordinal}'s primary context and loads the kernels into it; refuses at once when a sticky
     * error corrupted that context earlier in this process ({@link DeviceHealth}).
     */
    static JCudaGpu open(int ordinal) {
        DeviceHealth.checkUsable(); // a context corrupted earlier in this process stays corrupt
        JCudaDriver.setExceptionsEnabled(true);
        call("cuInit", () -> JCudaDriver.cuInit(0));
        CUdevice device = new CUdevice();
        call("cuDeviceGet(" + ordinal + ")", () -> JCudaDriver.cuDeviceGet(device, ordinal));
        CUcontext context = new CUcontext();
        call("cuDevicePrimaryCtxRetain", () -> JCudaDriver.cuDevicePrimaryCtxRetain(context, device));
        CUmodule module = null;
        try {
            call("cuCtxSetCurrent", () -> JCudaDriver.cuCtxSetCurrent(context));
            byte[] ptx = ptx();
            CUmodule m = new CUmodule();
            call("cuModuleLoadData(" + PTX_RESOURCE + ", " + ptxVersion(ptx) + ")",
                    () -> JCudaDriver.cuModuleLoadData(m, ptx));
            module = m;
            return new JCudaGpu(device, context, m);
        } catch (RuntimeException | Error e) {
            if (module != null) {
                CUmodule m = module;
                try {
                    JCudaDriver.cuModuleUnload(m);
                } catch (RuntimeException ignored) {
                    // the original failure matters more
                }
            }
            try {
                JCudaDriver.cuDevicePrimaryCtxRelease(device);
            } catch (RuntimeException ignored) {
                // the original failure matters more
            }
            throw e;
        }
    }

    /** The PTX resource, NUL-terminated as cuModuleLoadData wants it. */
    static byte[] ptx() {
        try (InputStream in = JCudaGpu.class.getResourceAsStream(PTX_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the kernels' PTX (io/commitflow/gpu/" + PTX_RESOURCE
                        + ") is not on the classpath");
            }
            byte[] text = in.readAllBytes();
            byte[] z = new byte[text.length + 1];
            System.arraycopy(text, 0, z, 0, text.length);
            return z;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code PTX 9.0 for sm_75}, from the PTX's {@code .version} and {@code .target} lines, for error messages. */
    static String ptxVersion(byte[] ptx) {
        String version = "?";
        String target = "?";
        for (String line : new String(ptx, StandardCharsets.US_ASCII).split("\n", 40)) {
            String t = line.trim();
            if (t.startsWith(".version ")) {
                version = t.substring(9).trim();
            } else if (t.startsWith(".target ")) {
                target = t.substring(8).trim();
            }
        }
        return "PTX " + version + " for " + target + "; the driver must support it (CUDA 13.0 or newer for PTX 9.0)";
    }

    /** What the first device is, or why there is none. Lets JCuda's load errors through: the caller catches them. */
    static EngineChoice probe() {
        JCudaDriver.setExceptionsEnabled(true);
        call("cuInit", () -> JCudaDriver.cuInit(0));
        int[] count = {0};
        call("cuDeviceGetCount", () -> JCudaDriver.cuDeviceGetCount(count));
        if (count[0] < 1) {
            return EngineChoice.unavailable("the CUDA driver loaded but reports no device");
        }
        CUdevice device = new CUdevice();
        call("cuDeviceGet(0)", () -> JCudaDriver.cuDeviceGet(device, 0));
        byte[] name = new byte[256];
        call("cuDeviceGetName", () -> JCudaDriver.cuDeviceGetName(name, name.length, device));
        int end = 0;
        while (end < name.length && name[end] != 0) {
            end++;
        }
        long[] memory = {0};
        call("cuDeviceTotalMem", () -> JCudaDriver.cuDeviceTotalMem(memory, device));
        int[] driver = {0};
        call("cuDriverGetVersion", () -> JCudaDriver.cuDriverGetVersion(driver));
        return EngineChoice.available(new String(name, 0, end, StandardCharsets.UTF_8), count[0], memory[0],
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
                driver[0]);
    }

    /** A device attribute, or 0 where this driver does not report it. */
    private static int attribute(CUdevice device, int attribute) {
        int[] v = {0};
        try {
            if (JCudaDriver.cuDeviceGetAttribute(v, attribute, device) != CUresult.CUDA_SUCCESS) {
                return 0;
            }
        } catch (CudaException e) {
            return 0;
        }
        return v[0];
    }

    /** Runs a driver call; a failure (exception or error code) becomes a GpuException naming the call. */
    private static void call(String what, IntSupplier f) {
        int result;
        try {
            result = f.getAsInt();
        } catch (CudaException e) {
            throw DeviceHealth.note(new GpuException(what + " failed: " + e.getMessage(), e));
        }
        if (result != CUresult.CUDA_SUCCESS) {
            throw DeviceHealth.note(new GpuException(what + " failed: " + CUresult.stringFor(result)));
        }
    }

    @Override
    public void bind() {
        call("cuCtxSetCurrent", () -> JCudaDriver.cuCtxSetCurrent(context));
    }

    @Override
    public int[] streamPriorityRange() {
        int[] least = {0};
        int[] greatest = {0};
        call("cuCtxGetStreamPriorityRange", () -> JCudaDriver.cuCtxGetStreamPriorityRange(least, greatest));
        return new int[] {least[0], greatest[0]};
    }

    @Override
    public Stream createStream(int priority) {
        CUstream s = new CUstream();
        call("cuStreamCreateWithPriority(" + priority + ")",
                () -> JCudaDriver.cuStreamCreateWithPriority(s, CUstream_flags.CU_STREAM_NON_BLOCKING, priority));
        int[] actual = {priority};
        call("cuStreamGetPriority", () -> JCudaDriver.cuStreamGetPriority(s, actual));
        return new DeviceStream(s, actual[0]);
    }

    @Override
    public Mem alloc(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        call("cuMemAlloc(" + bytes + " bytes)", () -> JCudaDriver.cuMemAlloc(p, bytes));
        return new DeviceMem(p, bytes);
    }

    @Override
    public Pinned allocPinned(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("pinned buffers stay below 2 GiB: " + bytes + " bytes");
        }
        Pointer p = new Pointer();
        call("cuMemHostAlloc(" + bytes + " bytes)",
                () -> JCudaDriver.cuMemHostAlloc(p, bytes, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE));
        ByteBuffer b = p.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
        return new HostMem(p, b, bytes);
    }

    @Override
    public void upload(Mem dst, long dstOffset, Pinned src, long srcOffset, long bytes, Stream stream) {
        check(dst, dstOffset, bytes);
        check(src, srcOffset, bytes);
        CUdeviceptr d = ((DeviceMem) dst).ptr.withByteOffset(dstOffset);
        Pointer h = ((HostMem) src).ptr.withByteOffset(srcOffset);
        call("cuMemcpyHtoDAsync(" + bytes + " bytes)",
                () -> JCudaDriver.cuMemcpyHtoDAsync(d, h, bytes, ((DeviceStream) stream).stream));
    }

    @Override
    public void download(Pinned dst, long dstOffset, Mem src, long srcOffset, long bytes, Stream stream) {
        check(dst, dstOffset, bytes);
        check(src, srcOffset, bytes);
        Pointer h = ((HostMem) dst).ptr.withByteOffset(dstOffset);
        CUdeviceptr d = ((DeviceMem) src).ptr.withByteOffset(srcOffset);
        call("cuMemcpyDtoHAsync(" + bytes + " bytes)",
                () -> JCudaDriver.cuMemcpyDtoHAsync(h, d, bytes, ((DeviceStream) stream).stream));
    }

    private static void check(Mem m, long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset + bytes > m.bytes()) {
            throw new IllegalArgumentException("copy of " + bytes + " bytes at " + offset + " outside device memory of "
                    + m.bytes() + " bytes");
        }
    }

    private static void check(Pinned p, long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset + bytes > p.bytes()) {
            throw new IllegalArgumentException("copy of " + bytes + " bytes at " + offset + " outside host memory of "
                    + p.bytes() + " bytes");
        }
    }

    @Override
    public void launch(Kernel kernel, int gridX, int gridY, Stream stream, Object... args) {
        kernel.check(args);
        NativePointerObject[] params = new NativePointerObject[args.length];
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a instanceof DeviceMem m) {
                params[i] = Pointer.to(m.ptr);
            } else if (a instanceof Integer v) {
                params[i] = Pointer.to(new int[] {v});
            } else {
                params[i] = Pointer.to(new long[] {(Long) a});
            }
        }
        call("cuLaunchKernel(" + kernel.entry + ", grid " + gridX + "x" + gridY + ")",
                () -> JCudaDriver.cuLaunchKernel(functions.get(kernel), gridX, gridY, 1, kernel.threads, 1, 1, 0,
                        ((DeviceStream) stream).stream, Pointer.to(params), null));
    }

    @Override
    public void synchronize(Stream stream) {
        call("cuStreamSynchronize", () -> JCudaDriver.cuStreamSynchronize(((DeviceStream) stream).stream));
    }

    @Override
    public Event createEvent() {
        CUevent e = new CUevent();
        call("cuEventCreate", () -> JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING));
        return new DeviceEvent(e);
    }

    @Override
    public void record(Event event, Stream stream) {
        call("cuEventRecord", () -> JCudaDriver.cuEventRecord(((DeviceEvent) event).event,
                ((DeviceStream) stream).stream));
    }

    @Override
    public void await(Stream stream, Event event) {
        call("cuStreamWaitEvent", () -> JCudaDriver.cuStreamWaitEvent(((DeviceStream) stream).stream,
                ((DeviceEvent) event).event, 0));
    }

    @Override
    public void synchronize(Event event) {
        call("cuEventSynchronize", () -> JCudaDriver.cuEventSynchronize(((DeviceEvent) event).event));
    }

    @Override
    public void destroy(Event event) {
        call("cuEventDestroy", () -> JCudaDriver.cuEventDestroy(((DeviceEvent) event).event));
    }

    @Override
    public void free(Mem mem) {
        call("cuMemFree", () -> JCudaDriver.cuMemFree(((DeviceMem) mem).ptr));
    }

    @Override
    public void free(Pinned pinned) {
        call("cuMemFreeHost", () -> JCudaDriver.cuMemFreeHost(((HostMem) pinned).ptr));
    }

    @Override
    public void destroy(Stream stream) {
        call("cuStreamDestroy", () -> JCudaDriver.cuStreamDestroy(((DeviceStream) stream).stream));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            bind();
            call("cuModuleUnload", () -> JCudaDriver.cuModuleUnload(module));
        } finally {
            call("cuDevicePrimaryCtxRelease", () -> JCudaDriver.cuDevicePrimaryCtxRelease(device));
        }
    }

    private record DeviceMem(CUdeviceptr ptr, long bytes) implements Mem {
    }

    private record HostMem(Pointer ptr, ByteBuffer buffer, long bytes) implements Pinned {
    }

    private record DeviceStream(CUstream stream, int priority) implements Stream {
    }

    private record DeviceEvent(CUevent event) implements Event {
    }
}
