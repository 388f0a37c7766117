#include "blocking_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

namespace gpujudge {

namespace {

// Generous for the host queueing one call, short for a solve that synchronises: it waits this
// long once, then the timed run stops blocking (see timed_runs.cpp).
constexpr unsigned long long kTimeoutNs = 10'000'000;

__device__ unsigned long long global_timer_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

constexpr int kThreadsPerBlock = 1024;

// Every thread of every block holds its SM's thread slots. Only block 0 polls the host's flag: each
// poll is a round trip over the bus, and the bus answers them one at a time (264 polling blocks took
// 273 µs on an H100 to all see a release, freeing SMs one by one). The others watch block 0's copy
// of it in device memory, a generation number, so no call has to clear it. A block that times out
// says so in flags[1]. Each block counts itself in first; the last to arrive tells the host, which
// calls solve only then.
__global__ void __launch_bounds__(kThreadsPerBlock)
    spin_until_released(volatile int* flags, unsigned* counters, unsigned generation) {
    volatile unsigned* released = counters;
    if (threadIdx.x == 0) {
        if (atomicAdd(&counters[1], 1u) == gridDim.x - 1) {  // every other block has counted in
            counters[1] = 0;
            flags[2] = static_cast<int>(generation);
        }
        const unsigned long long start = global_timer_ns();
        const bool polls_host = blockIdx.x == 0;
        while (polls_host ? flags[0] == 0 : *released != generation) {
            if (global_timer_ns() - start > kTimeoutNs) {
                flags[1] = 1;
                break;
            }
        }
        if (polls_host) *released = generation;  // released or timed out: every block goes
    }
    __syncthreads();
}

// Enough resident blocks to take every thread slot of every SM: while they spin, no block of any
// other kernel — one solve launched on a stream of its own during its host time — can start, so
// nothing of a call runs before the start event that follows them on the legacy stream.
int blocks_filling_the_device() {
    int device = 0, sms = 0, threads_per_sm = 0;
    GJ_CUDA_CHECK(cudaGetDevice(&device));
    GJ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    GJ_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    return sms * std::max(1, threads_per_sm / kThreadsPerBlock);
}

}  // namespace

blocking_kernel::blocking_kernel()
    : flags_(3 * sizeof(int)), counters_(2 * sizeof(unsigned)), blocks_(blocks_filling_the_device()) {
    GJ_CUDA_CHECK(cudaMemset(counters_.get(), 0, 2 * sizeof(unsigned)));
    static_cast<volatile int*>(flags_.host())[2] = 0;
}

void blocking_kernel::block() {
    volatile int* flags = static_cast<volatile int*>(flags_.host());
    flags[0] = flags[1] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const auto start = std::chrono::steady_clock::now();
    spin_until_released<<<blocks_, kThreadsPerBlock>>>(static_cast<volatile int*>(flags_.device()),
                                                       static_cast<unsigned*>(counters_.get()), ++generation_);
    GJ_CUDA_CHECK(cudaGetLastError());
    const auto launched = std::chrono::steady_clock::now();
    launch_ms_ = std::chrono::duration<double, std::milli>(launched - start).count();
    // Until every block is resident, a kernel solve queued on a stream of its own could take an SM.
    const auto deadline = launched + std::chrono::nanoseconds(kTimeoutNs);
    while (flags[2] != static_cast<int>(generation_) && std::chrono::steady_clock::now() < deadline) {
    }
    resident_ = flags[2] == static_cast<int>(generation_);
}

void blocking_kernel::release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    static_cast<volatile int*>(flags_.host())[0] = 1;
}

std::string blocking_kernel::failure() const {
    if (static_cast<volatile const int*>(flags_.host())[1] != 0) return "waited on the device while held back";
    if (!resident_) return "found the hold's kernel not yet on every SM after 10 ms";
    return {};
}

}  // namespace gpujudge
