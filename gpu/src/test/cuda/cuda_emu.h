// Just enough of CUDA to run retrieval.cu's kernels on the CPU: one block at a time, each CUDA thread a fiber with
// its own stack (switched by a few instructions on x86-64, by ucontext elsewhere), the block's fibers run in turn up
// to their next __syncthreads; __shared__ as statics (shared by the block's threads; blocks never overlap), warp
// shuffles through an exchange array. A barrier that some threads of a block skip (undefined on a GPU) stops the
// emulation with a message. Slow, but it executes the real kernel source, indices and all, on one OS thread.
#pragma once
#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

struct Dim3 {
    unsigned x = 0, y = 0, z = 0;
};

inline Dim3 threadIdx;  // the running fiber's
inline Dim3 blockIdx;
inline Dim3 blockDim;
inline Dim3 gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

struct alignas(16) float4 {
    float x, y, z, w;
};

struct alignas(8) float2 {
    float x, y;
};

inline float4 make_float4(float x, float y, float z, float w) {
    return {x, y, z, w};
}

using std::isnan;
using std::min;

namespace emu {
enum State { READY, AT_BARRIER, DONE };

inline std::vector<int> votes;
inline std::vector<uint64_t> exchange;
inline std::vector<State> state;
inline std::vector<char> stacks;
inline std::function<void()> body;
constexpr size_t STACK = 256 * 1024;

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "emulate: %s in block (%u, %u)\n", what, blockIdx.x, blockIdx.y);
    std::abort();
}

#if defined(__x86_64__) && !defined(EMU_UCONTEXT)  // EMU_UCONTEXT: the portable switch, to test it
// A fiber switch without a system call (swapcontext saves the signal mask with one, which made it most of the
// emulation's time): push the callee-saved registers, swap stack pointers, pop them. A new fiber's stack holds zeros
// for the registers and fiberStart as the return address.
extern "C" void emu_switch(void** save, void* to);
asm(R"(
    .text
    .globl emu_switch
    .type emu_switch, @function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size emu_switch, .-emu_switch
    .section .note.GNU-stack,"",@progbits
    .text
)");

inline std::vector<void*> fibers;
inline void* scheduler;

[[noreturn]] inline void fiberStart() {
    body();
    state[threadIdx.x] = DONE;
    void* unused;
    emu_switch(&unused, scheduler);
    std::abort();  // a finished fiber is never resumed
}

inline void start(unsigned t) {
    char* top = &stacks[(t + 1) * STACK];
    // top is 16-byte aligned; fiberStart starts as if called, with its (never used) return address at top - 8
    void** sp = reinterpret_cast<void**>(top - 8);
    *--sp = reinterpret_cast<void*>(&fiberStart);
    for (int i = 0; i < 6; i++) {
        *--sp = nullptr;  // rbp, rbx, r12 to r15
    }
    fibers[t] = sp;
}

inline void resume(unsigned t) {
    emu_switch(&scheduler, fibers[t]);
}

inline void yield(unsigned t) {
    emu_switch(&fibers[t], scheduler);
}
#else
inline std::vector<ucontext_t> fibers;
inline ucontext_t scheduler;

inline void fiberStart() {
    body();
    state[threadIdx.x] = DONE;  // uc_link returns to the scheduler
}

inline void start(unsigned t) {
    ucontext_t& f = fibers[t];
    getcontext(&f);
    f.uc_stack.ss_sp = &stacks[t * STACK];
    f.uc_stack.ss_size = STACK;
    f.uc_link = &scheduler;
    makecontext(&f, fiberStart, 0);
}

inline void resume(unsigned t) {
    swapcontext(&scheduler, &fibers[t]);
}

inline void yield(unsigned t) {
    swapcontext(&fibers[t], &scheduler);
}
#endif
}  // namespace emu

inline void __syncthreads() {
    const unsigned t = threadIdx.x;
    emu::state[t] = emu::AT_BARRIER;
    emu::yield(t);
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

// A 16-byte load must be 16-byte aligned on the GPU (a misaligned one faults): fail the same way here.
inline float4 __ldg(const float4* p) {
    if (reinterpret_cast<uintptr_t>(p) % 16 != 0) {
        std::fprintf(stderr, "emulate: misaligned 16-byte load at %p\n", static_cast<const void*>(p));
        std::abort();
    }
    float4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline float __ldg(const float* p) {
    return *p;
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
    emu::votes.assign(threads, 0);
    emu::exchange.assign(threads, 0);
    emu::fibers.resize(threads);
    emu::state.assign(threads, emu::READY);
    emu::stacks.resize(threads * emu::STACK);
    emu::body = [&] { kernel(args...); };
    for (unsigned by = 0; by < gridY; by++) {
        for (unsigned bx = 0; bx < gridX; bx++) {
            blockIdx = {bx, by, 0};
            for (unsigned t = 0; t < threads; t++) {
                emu::start(t);
                emu::state[t] = emu::READY;
            }
            // run every thread up to its next barrier (or its end), then release the barrier, until all are done
            for (;;) {
                for (unsigned t = 0; t < threads; t++) {
                    threadIdx = {t, 0, 0};
                    emu::resume(t);
                }
                const long waiting = std::count(emu::state.begin(), emu::state.end(), emu::AT_BARRIER);
                if (waiting == 0) {
                    break;
                }
                if (waiting != (long) threads) {
                    emu::fail("__syncthreads reached by some threads only");
                }
                std::fill(emu::state.begin(), emu::state.end(), emu::READY);
            }
        }
    }
}
