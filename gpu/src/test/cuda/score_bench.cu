// Times retrieval.cu's kernels alone on a GPU, launched as CudaEngine launches them for one search over ROWS rows
// of 1024 floats in chunks of 65,536: each score kernel (and score_few's tile shapes) at batches 1 to 8, and both
// small-batch paths end to end (scores, selection, merge), with the bandwidth of reading the rows once per search;
// a plain read of all rows gives the ceiling. Every score kernel's scores are compared with score_narrow's bit for bit
// on the device. A tool for choosing score_few's shape on a GPU host, not a test (nothing runs it in the build):
//
//   nvcc -gencode arch=compute_75,code=compute_75 -O3 -fmad=false -ftz=false score_bench.cu -o score_bench
//   ./score_bench [ROWS]          (default 1,000,000; about 4.3 GB of device memory)
//
// compute_75 PTX only, as the engine ships it: the driver compiles it for the GPU at hand, as it does the engine's.
#include "../../main/cuda/retrieval.cu"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "score_bench: %s failed: %s (line %d)\n", #call, cudaGetErrorString(e_), \
                         __LINE__);                                                                     \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)

namespace {

constexpr int DIM = 1024;
constexpr int CHUNK = 65536;
constexpr int MAXQ = 8;
constexpr int K = 10;
constexpr int REPEATS = 21;

// score_few's body in other shapes: TR rows per block, tiles of TILE, at least MINB blocks per SM (a register cap)
template <int TR, int TILE, int MINB>
__global__ void __launch_bounds__(TR, MINB) few_shape(
        const float* __restrict__ rows, const int* __restrict__ rowGroup, const long long* __restrict__ rowStamp,
        int n, int dim, const float* __restrict__ queries, const int* __restrict__ queryGroup,
        const long long* __restrict__ queryFrom, const long long* __restrict__ queryTo, int nq,
        float* __restrict__ out, long long ld, long long outOff) {
    scoreFew<TR, TILE>(rows, rowGroup, rowStamp, n, dim, queries, queryGroup, queryFrom, queryTo, nq, out, ld, outOff);
}

// The read ceiling: every float4 of the rows read once (grid-stride, four loads in flight per thread), summed so that
// the loads are not dropped.
__global__ void read_all(const float4* __restrict__ p, long long n4, float* __restrict__ sink) {
    float s = 0.0f;
    const long long stride = (long long) gridDim.x * blockDim.x;
    long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 a = __ldg(p + i);
        const float4 b = __ldg(p + i + stride);
        const float4 c = __ldg(p + i + 2 * stride);
        const float4 d = __ldg(p + i + 3 * stride);
        s += a.x + b.y + c.z + d.w;
    }
    for (; i < n4; i += stride) {
        s += __ldg(p + i).x;
    }
    if (s == 12345.678f) {
        sink[0] = s;
    }
}

__global__ void fill(float* p, long long n, unsigned seed) {
    const long long stride = (long long) gridDim.x * blockDim.x;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned x = (unsigned) i * 2654435761u ^ seed ^ (unsigned) (i >> 32) * 40503u;
        x ^= x >> 15;
        x *= 2246822519u;
        x ^= x >> 13;
        p[i] = (float) (x & 0xffffff) / 8388608.0f - 1.0f;
    }
}

struct Device {
    int rows, chunks;
    std::vector<float*> chunkRows;
    int* groups;          // CHUNK zeros, shared by every chunk
    long long* stamps;    // 0..CHUNK-1
    float* queries;
    int* qg;
    long long* qf;
    long long* qt;
    float* scores;        // MAXQ x (chunks x CHUNK)
    float* reference;     // the same, from score_narrow
    float* candScores;
    int* candSlots;
    float* answerScores;
    int* answerSlots;
    float* sink;
    cudaEvent_t start, stop;

    int chunkN(int ch) const {
        return std::min(CHUNK, rows - ch * CHUNK);
    }
    long long ld() const {
        return (long long) chunks * CHUNK;
    }
};

typedef void (*ScoreFn)(const float*, const int*, const long long*, int, int, const float*, const int*,
                        const long long*, const long long*, int, float*, long long, long long);

// One kernel's launches over every chunk for nq queries, scores side by side (query q, slot s at q * ld + s).
void scoreAll(const Device& d, ScoreFn few, int threads, bool narrow, int nq, float* out) {
    for (int ch = 0; ch < d.chunks; ch++) {
        const int n = d.chunkN(ch);
        if (narrow) {
            score_narrow<<<(n + 255) / 256, SCORE_THREADS>>>(d.chunkRows[ch], d.groups, d.stamps, n, DIM, d.queries,
                    d.qg, d.qf, d.qt, nq, out + (long long) ch * CHUNK, d.ld());
        } else {
            few<<<dim3((n + threads - 1) / threads, (nq + FEW_QUERIES - 1) / FEW_QUERIES), threads>>>(d.chunkRows[ch],
                    d.groups, d.stamps, n, DIM, d.queries, d.qg, d.qf, d.qt, nq, out, d.ld(), (long long) ch * CHUNK);
        }
    }
}

template <class F>
double medianMs(const Device& d, F work) {
    work();  // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(REPEATS);
    for (int r = 0; r < REPEATS; r++) {
        CHECK(cudaEventRecord(d.start));
        work();
        CHECK(cudaEventRecord(d.stop));
        CHECK(cudaEventSynchronize(d.stop));
        CHECK(cudaEventElapsedTime(&ms[r], d.start, d.stop));
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[REPEATS / 2];
}

void report(const Device& d, const char* what, int nq, double ms, double peakGbps) {
    const double gbps = (double) d.rows * DIM * 4 / (ms / 1e3) / 1e9;
    std::printf("%-34s batch %d: %8.3f ms  %7.1f GB/s  %5.1f%% of %.0f GB/s  %7.1f queries/s\n", what, nq, ms, gbps,
                100 * gbps / peakGbps, peakGbps, nq / (ms / 1e3));
}

bool sameBits(const Device& d, int nq) {
    const size_t n = (size_t) nq * d.ld();
    std::vector<float> a(n), b(n);
    CHECK(cudaMemcpy(a.data(), d.scores, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), d.reference, n * 4, cudaMemcpyDeviceToHost));
    for (int q = 0; q < nq; q++) {
        const size_t o = (size_t) q * d.ld();
        if (std::memcmp(&a[o], &b[o], (size_t) d.rows * 4) != 0) {
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Device d;
    d.rows = argc > 1 ? std::atoi(argv[1]) : 1000000;
    d.chunks = (d.rows + CHUNK - 1) / CHUNK;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clockKHz = 0;
    int busBits = 0;
    CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, 0));
    const double peakGbps = (double) clockKHz * 1000 * busBits * 2 / 8 / 1e9;
    std::printf("score_bench: %s, %d SMs, L2 %d MiB, memory clock %d kHz x %d bits: peak %.0f GB/s; %d rows of %d "
                "floats in %d chunks of %d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, clockKHz,
                busBits, peakGbps, d.rows, DIM, d.chunks, CHUNK);

    for (int ch = 0; ch < d.chunks; ch++) {
        float* p;
        CHECK(cudaMalloc(&p, (size_t) CHUNK * DIM * 4));
        fill<<<1024, 256>>>(p, (long long) CHUNK * DIM, 17u + ch);
        d.chunkRows.push_back(p);
    }
    CHECK(cudaMalloc(&d.groups, CHUNK * 4));
    CHECK(cudaMemset(d.groups, 0, CHUNK * 4));
    std::vector<long long> stamps(CHUNK);
    for (int i = 0; i < CHUNK; i++) {
        stamps[i] = i;
    }
    CHECK(cudaMalloc(&d.stamps, CHUNK * 8));
    CHECK(cudaMemcpy(d.stamps, stamps.data(), CHUNK * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d.queries, MAXQ * DIM * 4));
    fill<<<8, 256>>>(d.queries, MAXQ * DIM, 99u);
    std::vector<int> qg(MAXQ, 0);
    std::vector<long long> qf(MAXQ, 0), qt(MAXQ, 1LL << 62);
    CHECK(cudaMalloc(&d.qg, MAXQ * 4));
    CHECK(cudaMalloc(&d.qf, MAXQ * 8));
    CHECK(cudaMalloc(&d.qt, MAXQ * 8));
    CHECK(cudaMemcpy(d.qg, qg.data(), MAXQ * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.qf, qf.data(), MAXQ * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.qt, qt.data(), MAXQ * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d.scores, (size_t) MAXQ * d.ld() * 4));
    CHECK(cudaMalloc(&d.reference, (size_t) MAXQ * d.ld() * 4));
    const size_t cand = (size_t) MAXQ * d.chunks * 64 * MAX_K;
    CHECK(cudaMalloc(&d.candScores, cand * 4));
    CHECK(cudaMalloc(&d.candSlots, cand * 4));
    CHECK(cudaMalloc(&d.answerScores, MAXQ * MAX_K * 4));
    CHECK(cudaMalloc(&d.answerSlots, MAXQ * MAX_K * 4));
    CHECK(cudaMalloc(&d.sink, 4));
    CHECK(cudaEventCreate(&d.start));
    CHECK(cudaEventCreate(&d.stop));
    CHECK(cudaDeviceSynchronize());

    // the ceiling: one plain read of every row, per chunk as the score kernels read them, and at once
    const double readMs = medianMs(d, [&] {
        for (int ch = 0; ch < d.chunks; ch++) {
            read_all<<<prop.multiProcessorCount * 8, 256>>>(reinterpret_cast<const float4*>(d.chunkRows[ch]),
                    (long long) d.chunkN(ch) * DIM / 4, d.sink);
        }
    });
    report(d, "read_all per chunk (ceiling)", 1, readMs, peakGbps);

    struct Shape {
        const char* name;
        ScoreFn fn;
        int threads;
    };
    const Shape shapes[] = {
        {"score_few (128 rows, tiles of 64)", score_few, FEW_THREADS},
        {"few_shape<256, 32>", few_shape<256, 32, 1>, 256},
        {"few_shape<128, 32>", few_shape<128, 32, 1>, 128},
        {"few_shape<128, 64>", few_shape<128, 64, 1>, 128},
        {"few_shape<64, 64>", few_shape<64, 64, 1>, 64},
    };
    bool allSame = true;
    for (int nq : {1, 2, 4, 8}) {
        const double narrowMs = medianMs(d, [&] { scoreAll(d, nullptr, 0, true, nq, d.reference); });
        report(d, "score_narrow", nq, narrowMs, peakGbps);
        for (const Shape& s : shapes) {
            CHECK(cudaMemset(d.scores, 0xff, (size_t) MAXQ * d.ld() * 4));
            const double ms = medianMs(d, [&] { scoreAll(d, s.fn, s.threads, false, nq, d.scores); });
            const bool same = sameBits(d, nq);
            allSame &= same;
            report(d, s.name, nq, ms, peakGbps);
            if (!same) {
                std::printf("score_bench: %s at batch %d: scores DIFFER from score_narrow's\n", s.name, nq);
            }
        }
    }

    // both small-batch paths end to end, as CudaEngine launches them (k 10)
    for (int nq : {1, 8}) {
        const int parts = std::min(64, 256 / nq);
        const long long candPerChunk = (long long) parts * K;
        const double narrowPath = medianMs(d, [&] {
            const long long candLd = d.chunks * candPerChunk;
            for (int ch = 0; ch < d.chunks; ch++) {
                const int n = d.chunkN(ch);
                score_narrow<<<(n + 255) / 256, SCORE_THREADS>>>(d.chunkRows[ch], d.groups, d.stamps, n, DIM,
                        d.queries, d.qg, d.qf, d.qt, nq, d.reference, (long long) CHUNK);
                topk<<<dim3(nq, parts), TOPK_THREADS>>>(d.reference, nullptr, 0, CHUNK, n, ch * CHUNK, K, d.candScores,
                        d.candSlots, candLd, ch * candPerChunk);
            }
            topk<<<nq, TOPK_THREADS>>>(d.candScores, d.candSlots, 1, candLd, (int) candLd, 0, K, d.answerScores,
                    d.answerSlots, K, 0);
        });
        report(d, "narrow path (scores, topk per chunk)", nq, narrowPath, peakGbps);
        const int wholeParts = std::max(1, std::min(256 / nq, (d.rows + 1023) / 1024));
        const double fewPath = medianMs(d, [&] {
            scoreAll(d, score_few, FEW_THREADS, false, nq, d.scores);
            topk<<<dim3(nq, wholeParts), TOPK_THREADS>>>(d.scores, nullptr, 0, d.ld(), d.rows, 0, K, d.candScores,
                    d.candSlots, (long long) wholeParts * K, 0);
            topk<<<nq, TOPK_THREADS>>>(d.candScores, d.candSlots, 1, (long long) wholeParts * K, wholeParts * K, 0,
                    K, d.answerScores, d.answerSlots, K, 0);
        });
        report(d, "few path (scores, one topk)", nq, fewPath, peakGbps);
        const double selectOnly = medianMs(d, [&] {
            topk<<<dim3(nq, wholeParts), TOPK_THREADS>>>(d.scores, nullptr, 0, d.ld(), d.rows, 0, K, d.candScores,
                    d.candSlots, (long long) wholeParts * K, 0);
            topk<<<nq, TOPK_THREADS>>>(d.candScores, d.candSlots, 1, (long long) wholeParts * K, wholeParts * K, 0,
                    K, d.answerScores, d.answerSlots, K, 0);
        });
        std::printf("%-34s batch %d: %8.3f ms (one topk over %d parts and the merge)\n", "  of which selection", nq,
                    selectOnly, wholeParts);
    }
    std::printf("score_bench: %s\n", allSame ? "every score_few shape equals score_narrow bit for bit"
                                             : "SOME SCORES DIFFER");
    return allSame ? 0 : 1;
}
