package io.commitflow.gpu;

import java.util.Locale;

/**
 * What {@link Engines#probe()} found: whether the CUDA engine can run here, and why not, or on which device.
 *
 * @param cudaAvailable    a CUDA driver loaded through JCuda and reports at least one device
 * @param reason           why CUDA is unavailable (empty when available)
 * @param device           the first device's name, e.g. {@code NVIDIA H200} (empty when unavailable)
 * @param deviceCount      devices the driver reports
 * @param totalMemoryBytes the first device's memory
 * @param computeMajor     compute capability, major (9 on Hopper)
 * @param computeMinor     compute capability, minor
 * @param memoryClockKHz   the memory clock, or 0 where the driver does not report it
 * @param memoryBusBits    the memory bus width, or 0 where the driver does not report it
 * @param driverVersion    CUDA driver version, e.g. 13000 for 13.0
 */
public record EngineChoice(boolean cudaAvailable, String reason, String device, int deviceCount,
                           long totalMemoryBytes, int computeMajor, int computeMinor, int memoryClockKHz,
                           int memoryBusBits, int driverVersion) {

    static EngineChoice unavailable(String reason) {
        return new EngineChoice(false, reason, "", 0, 0, 0, 0, 0, 0, 0);
    }

    static EngineChoice available(String device, int count, long memory, int major, int minor, int clockKHz,
                                  int busBits, int driver) {
        return new EngineChoice(true, "", device, count, memory, major, minor, clockKHz, busBits, driver);
    }

    /** Peak memory bandwidth from the clock and bus width (double data rate), or 0 where either is unknown. */
    public double peakBytesPerSecond() {
        return (double) memoryClockKHz * 1000 * memoryBusBits * 2 / 8;
    }

    /** One line for logs. */
    public String describe() {
        if (!cudaAvailable) {
            return "CUDA unavailable: " + reason;
        }
        return String.format(Locale.ROOT, "%s (compute %d.%d, %.1f GiB, driver %d.%d)", device, computeMajor,
                computeMinor, totalMemoryBytes / 1073741824.0, driverVersion / 1000, driverVersion % 1000 / 10);
    }

    /** A JSON object (no library needed: the bundle prints it). */
    public String toJson() {
        return String.format(Locale.ROOT, "{\"cuda_available\":%b,\"reason\":\"%s\",\"device\":\"%s\",\"device_count\":%d,"
                        + "\"total_memory_bytes\":%d,\"compute_capability\":\"%d.%d\",\"memory_clock_khz\":%d,"
                        + "\"memory_bus_bits\":%d,\"driver_version\":%d,\"peak_gb_per_s\":%.1f}",
                cudaAvailable, json(reason), json(device), deviceCount, totalMemoryBytes, computeMajor, computeMinor,
                memoryClockKHz, memoryBusBits, driverVersion, peakBytesPerSecond() / 1e9);
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
