#include "device/blocking_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>

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

// Shared by the host and the hold's kernel, in mapped pinned memory.
struct hold_flags {
    int released;             // by the host: solve returned
    int timed_out;            // by a block that gave up waiting
    unsigned resident;        // by the last block to count in: the generation whose blocks are all resident
    unsigned check_asked;     // by the host: the generation whose watch block 0 is to check now
    unsigned check_answered;  // by block 0: the last generation it checked
    int found;                // by block 0: that check found a word without its poison, `first`
    early_write first;
    poison_watch watch;
};

// What lane 0 of block 0 saw at one poll of the host's flags.
enum class hold_poll { waiting, check, released, timed_out };

// Block 0's warp 0 reads the sample of every watched output, each lane its share, and reports the
// first word found without its poison (hold_flags::first).
__device__ void check_poison(volatile hold_flags* flags, unsigned generation) {
    const int lane = static_cast<int>(threadIdx.x);
    const int num_outputs = flags->watch.num_outputs;
    const std::uint64_t seed = flags->watch.seed;
    for (int o = 0; o < num_outputs; ++o) {
        const volatile std::uint32_t* words = flags->watch.outputs[o].words;
        const std::uint64_t num_words = flags->watch.outputs[o].num_words;
        const std::uint32_t poison = flags->watch.outputs[o].poison;
        std::uint64_t word = 0;
        std::uint32_t value = poison;
        for (int k = 0; k < kWatchWordsPerLane && value == poison; ++k) {
            word = sampled_word(seed, o, lane, k, num_words);
            value = words[word];
        }
        const unsigned unpoisoned = __ballot_sync(~0u, value != poison);
        if (unpoisoned == 0) continue;
        if (lane == __ffs(unpoisoned) - 1) {
            flags->first.output = o;
            flags->first.word = word;
            flags->first.value = value;
            flags->found = 1;
        }
        break;
    }
    __syncwarp();
    __threadfence_system();
    if (lane == 0) flags->check_answered = generation;
}

// Lane 0 of block 0 polls the host's flags; its warp acts on what it saw.
__device__ hold_poll poll_host(volatile hold_flags* flags, unsigned generation, bool checked,
                               unsigned long long start) {
    hold_poll seen = hold_poll::waiting;
    if (threadIdx.x == 0) {
        if (flags->released != 0)
            seen = hold_poll::released;
        else if (!checked && flags->check_asked == generation)
            seen = hold_poll::check;
        else if (global_timer_ns() - start > kTimeoutNs)
            seen = hold_poll::timed_out;
    }
    return static_cast<hold_poll>(__shfl_sync(~0u, static_cast<int>(seen), 0));
}

// Every thread of every block holds its SM's thread slots. Only block 0 polls the host's flags: each
// poll is a round trip over the bus, and the bus answers them one at a time (264 polling blocks took
// 273 µs on an H100 to all see a release, freeing SMs one by one). The others watch block 0's copy
// of it in device memory, a generation number, so no call has to clear it. A block that times out
// says so. Each block counts itself in first; the last to arrive tells the host, which then has
// block 0's first warp check the watched outputs and calls solve only after that.
__global__ void __launch_bounds__(kThreadsPerBlock)
    spin_until_released(volatile hold_flags* flags, unsigned* counters, unsigned generation) {
    volatile unsigned* released = counters;
    if (threadIdx.x == 0 && atomicAdd(&counters[1], 1u) == gridDim.x - 1) {  // every other block has counted in
        counters[1] = 0;
        flags->resident = generation;
    }
    const unsigned long long start = global_timer_ns();
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        __syncwarp();
        for (bool checked = false;;) {
            const hold_poll seen = poll_host(flags, generation, checked, start);
            if (seen == hold_poll::check) {
                check_poison(flags, generation);
                checked = true;
            } else if (seen != hold_poll::waiting) {
                if (seen == hold_poll::timed_out && threadIdx.x == 0) flags->timed_out = 1;
                break;
            }
        }
        if (threadIdx.x == 0) *released = generation;  // released or timed out: every block goes
    } else if (threadIdx.x == 0) {
        while (*released != generation) {
            if (global_timer_ns() - start > kTimeoutNs) {
                flags->timed_out = 1;
                break;
            }
        }
    }
    __syncthreads();
}

// The check alone, for a call not held back.
__global__ void check_outputs(volatile hold_flags* flags, unsigned generation) {
    check_poison(flags, generation);
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
    : flags_(sizeof(hold_flags)), counters_(2 * sizeof(unsigned)), blocks_(blocks_filling_the_device()) {
    GJ_CUDA_CHECK(cudaMemset(counters_.get(), 0, 2 * sizeof(unsigned)));
    std::memset(flags_.host(), 0, sizeof(hold_flags));
}

void blocking_kernel::post(const poison_watch& watch) {
    volatile hold_flags* flags = static_cast<volatile hold_flags*>(flags_.host());
    flags->found = 0;
    std::memcpy(const_cast<poison_watch*>(&flags->watch), &watch, sizeof(poison_watch));
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

void blocking_kernel::check(const poison_watch& watch) {
    volatile hold_flags* flags = static_cast<volatile hold_flags*>(flags_.host());
    post(watch);
    check_outputs<<<1, kWatchLanes>>>(static_cast<volatile hold_flags*>(flags_.device()), ++generation_);
    // Waits as long as the device is busy: between calls, only with what the submission left there.
    const bool ran = cudaGetLastError() == cudaSuccess && cudaStreamSynchronize(0) == cudaSuccess;
    resident_ = true;
    checked_ = ran && flags->check_answered == generation_;
}

void blocking_kernel::block(const poison_watch* watch) {
    volatile hold_flags* flags = static_cast<volatile hold_flags*>(flags_.host());
    flags->released = flags->timed_out = 0;
    const bool watching = watch && watch->num_outputs > 0;
    post(watching ? *watch : poison_watch{});
    const auto start = std::chrono::steady_clock::now();
    spin_until_released<<<blocks_, kThreadsPerBlock>>>(static_cast<volatile hold_flags*>(flags_.device()),
                                                       static_cast<unsigned*>(counters_.get()), ++generation_);
    GJ_CUDA_CHECK(cudaGetLastError());
    const auto launched = std::chrono::steady_clock::now();
    launch_ms_ = std::chrono::duration<double, std::milli>(launched - start).count();
    // Until every block is resident, a kernel solve queued on a stream of its own could take an SM.
    const auto deadline = launched + std::chrono::nanoseconds(kTimeoutNs);
    while (flags->resident != generation_ && std::chrono::steady_clock::now() < deadline) {
    }
    resident_ = flags->resident == generation_;
    checked_ = true;
    if (!resident_ || !watching) return;
    // solve has not been called: what the watched outputs hold was written before the call.
    flags->check_asked = generation_;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    while (flags->check_answered != generation_ && std::chrono::steady_clock::now() < deadline) {
    }
    checked_ = flags->check_answered == generation_;
}

void blocking_kernel::release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    static_cast<volatile hold_flags*>(flags_.host())->released = 1;
}

std::string blocking_kernel::failure() const {
    if (static_cast<volatile const hold_flags*>(flags_.host())->timed_out != 0)
        return "waited on the device while held back";
    if (!resident_) return "found the hold's kernel not yet on every SM after 10 ms";
    if (!checked_) return "found the hold's check of the outputs unanswered after 10 ms";
    return {};
}

std::optional<early_write> blocking_kernel::written_early() const {
    const volatile hold_flags* flags = static_cast<volatile const hold_flags*>(flags_.host());
    if (!checked_ || flags->found == 0) return std::nullopt;
    return early_write{flags->first.output, flags->first.word, flags->first.value};
}

}  // namespace gpujudge
