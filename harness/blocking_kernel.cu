#include "blocking_kernel.hpp"

#include <algorithm>
#include <atomic>

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
// says so in flags[1].
__global__ void __launch_bounds__(kThreadsPerBlock)
    spin_until_released(volatile int* flags, volatile unsigned* released, unsigned generation) {
    if (threadIdx.x == 0) {
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
    : flags_(2 * sizeof(int)), released_(sizeof(unsigned)), blocks_(blocks_filling_the_device()) {
    GJ_CUDA_CHECK(cudaMemset(released_.get(), 0, sizeof(unsigned)));
}

void blocking_kernel::block() {
    volatile int* flags = static_cast<volatile int*>(flags_.host());
    flags[0] = flags[1] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    spin_until_released<<<blocks_, kThreadsPerBlock>>>(static_cast<volatile int*>(flags_.device()),
                                                       static_cast<volatile unsigned*>(released_.get()), ++generation_);
    GJ_CUDA_CHECK(cudaGetLastError());
}

void blocking_kernel::release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    static_cast<volatile int*>(flags_.host())[0] = 1;
}

bool blocking_kernel::timed_out() const {
    return static_cast<volatile const int*>(flags_.host())[1] != 0;
}

}  // namespace gpujudge
