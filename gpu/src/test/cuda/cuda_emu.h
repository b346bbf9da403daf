// Just enough of CUDA to run retrieval.cu's kernels on the CPU: one block at a time, one std::thread per CUDA
// thread, __syncthreads as a barrier, __shared__ as statics (shared by the block's threads; blocks never overlap),
// warp shuffles through an exchange array. Slow, but it executes the real kernel source, indices and all.
#pragma once
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

struct Dim3 {
    unsigned x = 0, y = 0, z = 0;
};

inline thread_local Dim3 threadIdx;
inline Dim3 blockIdx;
inline Dim3 blockDim;
inline Dim3 gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(n)

using std::isnan;
using std::min;

namespace emu {
inline std::barrier<>* bar = nullptr;
inline std::vector<int> votes;
inline std::vector<uint64_t> exchange;
}  // namespace emu

inline void __syncthreads() {
    emu::bar->arrive_and_wait();
}

inline int __syncthreads_or(int predicate) {
    emu::votes[threadIdx.x] = predicate;
    __syncthreads();
    int any = 0;
    for (int v : emu::votes) {
        any |= v != 0;
    }
    __syncthreads();
    return any;
}

// Every thread of the block must call it together (retrieval.cu's reduction does): lanes past the warp's end get
// their own value back, as on the GPU.
template <class T>
inline T __shfl_down_sync(unsigned, T v, int offset) {
    static_assert(sizeof(T) <= 8, "64 bits at most");
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    emu::exchange[threadIdx.x] = bits;
    __syncthreads();
    T out = v;
    if ((threadIdx.x & 31) + offset < 32) {
        std::memcpy(&out, &emu::exchange[threadIdx.x + offset], sizeof(T));
    }
    __syncthreads();
    return out;
}

inline float __int_as_float(int i) {
    float f;
    std::memcpy(&f, &i, sizeof f);
    return f;
}

// compiled with -ffp-contract=off: a product and a sum, each rounded to float, never fused
inline float __fmul_rn(float a, float b) {
    return a * b;
}

inline float __fadd_rn(float a, float b) {
    return a + b;
}

// Runs kernel(args...) on a gridX x gridY grid of blocks of `threads` threads.
template <class Kernel, class... Args>
void launch(Kernel kernel, unsigned gridX, unsigned gridY, unsigned threads, Args... args) {
    gridDim = {gridX, gridY, 1};
    blockDim = {threads, 1, 1};
    std::barrier<> barrier(threads);
    emu::bar = &barrier;
    emu::votes.assign(threads, 0);
    emu::exchange.assign(threads, 0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; t++) {
        pool.emplace_back([&, t] {
            threadIdx = {t, 0, 0};
            for (unsigned by = 0; by < gridY; by++) {
                for (unsigned bx = 0; bx < gridX; bx++) {
                    if (t == 0) {
                        blockIdx = {bx, by, 0};
                    }
                    barrier.arrive_and_wait();
                    kernel(args...);
                    barrier.arrive_and_wait();
                }
            }
        });
    }
    for (auto& th : pool) {
        th.join();
    }
}
