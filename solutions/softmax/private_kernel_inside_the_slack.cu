// expect: accepted
// timed: unblocked
// Attack (device work past the stop event, inside the host clock's slack), correct answers, for
// softmax, with no thread and no host computing: solve launches the whole softmax on a
// cudaStreamNonBlocking stream and, on the legacy stream, only a one-block pad of about 55 % of its
// own host time. The events bracket the pad: start, pad, stop. The softmax waits for the release
// like everything else (the hold takes every SM) and then runs beside the pad, past the stop event;
// only the host clock sees it, and work_hid_from_events (harness/timing/clock_choice.cpp) let a run's
// median host time exceed its median event time by 5 % + 5 µs, held back or not, before it timed the
// run by that clock. So a kernel of K µs would read as about max(K - 5, the pad) µs. What the pad cannot go below is
// the held calls' allowance: solve's host time was to stay under the event time plus min(event time,
// the hold's launch), so the pad is sized at 55 % of solve's own median host time (what passes the
// event time and one launch is now charged to the call, see held_call_times). The grid barrier
// is an atomic count, safe because the grid (at most one 256-thread block per SM) is always
// co-resident once the hold lets go. Held back, the host clock's slack is now 2 % + 1 µs (honest held
// runs read at most 0.6 % more on it than on the events), so the softmax past the stop event would be
// timed by it. On the H100 this file was timed unblocked in any case, 36.5 µs at N = 500000 and
// 31.6 µs at N = 2^18 (cooperative_single_pass.cu: 10.3 and 8.2 µs held back): solve's two launches
// took 21-24 µs on the host, over the event time plus one launch. On an H200, with that excess
// charged, it was held back at 12.3 µs (events 9.8, solve 20.0 µs on the host, 2.2 charged) at N = 2^18
// and 14.2 µs at N = 500000; cooperative_single_pass.cu 7.9 µs. Accepted, at an honest time;
// validate --run checks the verdict and, for `timed: unblocked`, that no run was timed by the events
// alone (held back, with no charge).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>

// The honest single pass's constants and helpers: MaxSum, merge, block_merge, max4, kThreads, kVecsPerThread.
#define solve cooperative_single_pass_solve
#include "cooperative_single_pass.cu"
#undef solve

namespace {

constexpr double kMinEventUs = 5.5;        // 1.05 x 5.5 + 5 = 10.8 µs: more than the softmax takes
constexpr double kEmptyKernelUs = 3.2;     // a 1-block kernel as the judge times it (README, size_ceiling.cu)
constexpr double kShareOfHostTime = 0.55;  // the old allowance: host time < E + min(E, launch) = 2E here

struct grid_barrier {
    unsigned count;
    unsigned generation;  // the last launch whose blocks all arrived
};

// One use per launch: the last block to arrive resets the count and publishes the launch's id.
__device__ void grid_sync(grid_barrier* barrier, unsigned launch_id) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&barrier->count, 1u) == gridDim.x - 1) {
            barrier->count = 0;
            __threadfence();
            atomicExch(&barrier->generation, launch_id);
        } else {
            while (atomicAdd(&barrier->generation, 0u) != launch_id) {
            }
        }
        __threadfence();
    }
    __syncthreads();
}

// cooperative_single_pass.cu's kernel with the barrier above in place of grid.sync().
__global__ void __launch_bounds__(kThreads) softmax_on_private_stream(const float* input, float* output, int N,
                                                           MaxSum* block_partials, grid_barrier* barrier,
                                                           unsigned launch_id) {
    const int num_vecs = N / 4;
    const int num_threads = gridDim.x * kThreads;
    const int thread = blockIdx.x * kThreads + threadIdx.x;
    const float4* input4 = reinterpret_cast<const float4*>(input);
    float4* output4 = reinterpret_cast<float4*>(output);

    float4 v[kVecsPerThread];
#pragma unroll
    for (int k = 0; k < kVecsPerThread; ++k) {
        const int index = thread + k * num_threads;
        v[k] = index < num_vecs ? input4[index] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    }
    const int tail_index = 4 * num_vecs + thread;
    const float tail = tail_index < N ? input[tail_index] : -INFINITY;

    float thread_max = tail;
#pragma unroll
    for (int k = 0; k < kVecsPerThread; ++k) thread_max = fmaxf(thread_max, max4(v[k]));
    for (int index = thread + kVecsPerThread * num_threads; index < num_vecs; index += num_threads)
        thread_max = fmaxf(thread_max, max4(input4[index]));

    float thread_sum = 0.0f;
    if (thread_max != -INFINITY) {
        thread_sum = expf(tail - thread_max);
#pragma unroll
        for (int k = 0; k < kVecsPerThread; ++k)
            thread_sum += (expf(v[k].x - thread_max) + expf(v[k].y - thread_max)) +
                          (expf(v[k].z - thread_max) + expf(v[k].w - thread_max));
        for (int index = thread + kVecsPerThread * num_threads; index < num_vecs; index += num_threads) {
            const float4 w = input4[index];
            thread_sum += (expf(w.x - thread_max) + expf(w.y - thread_max)) +
                          (expf(w.z - thread_max) + expf(w.w - thread_max));
        }
    }
    const MaxSum block = block_merge({thread_max, thread_sum});
    if (threadIdx.x == 0) block_partials[blockIdx.x] = block;

    grid_sync(barrier, launch_id);

    MaxSum running = {-INFINITY, 0.0f};
    for (int p = threadIdx.x; p < gridDim.x; p += kThreads) {  // from L2: other SMs wrote them
        const float2 partial = __ldcg(reinterpret_cast<const float2*>(block_partials) + p);
        running = merge(running, {partial.x, partial.y});
    }
    const MaxSum total = block_merge(running);
    const float max = total.max, inverse_sum = 1.0f / total.sum;

#pragma unroll
    for (int k = 0; k < kVecsPerThread; ++k) {
        const int index = thread + k * num_threads;
        if (index < num_vecs)
            output4[index] = make_float4(expf(v[k].x - max) * inverse_sum, expf(v[k].y - max) * inverse_sum,
                                         expf(v[k].z - max) * inverse_sum, expf(v[k].w - max) * inverse_sum);
    }
    for (int index = thread + kVecsPerThread * num_threads; index < num_vecs; index += num_threads) {
        const float4 w = input4[index];
        output4[index] = make_float4(expf(w.x - max) * inverse_sum, expf(w.y - max) * inverse_sum,
                                     expf(w.z - max) * inverse_sum, expf(w.w - max) * inverse_sum);
    }
    if (tail_index < N) output[tail_index] = expf(tail - max) * inverse_sum;
}

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// What the events see.
__global__ void pad(unsigned long long ns) {
    if (threadIdx.x != 0) return;
    const unsigned long long start = now_ns();
    while (now_ns() - start < ns) {
    }
}

// solve's own host time, median of the last calls (the judge decides on medians too).
class host_times {
public:
    void add(double us) {
        values_[next_++ % kCount] = us;
        filled_ = std::min(filled_ + 1, kCount);
    }
    double median() const {
        if (filled_ == 0) return 2 * kMinEventUs;
        double sorted[kCount];
        std::copy(values_, values_ + filled_, sorted);
        std::nth_element(sorted, sorted + filled_ / 2, sorted + filled_);
        return sorted[filled_ / 2];
    }

private:
    static constexpr int kCount = 15;
    double values_[kCount] = {};
    int next_ = 0, filled_ = 0;
};

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    const auto entry = std::chrono::steady_clock::now();
    static cudaStream_t stream = nullptr;
    static int num_sms = 0;
    static MaxSum* d_partials = nullptr;
    static grid_barrier* d_barrier = nullptr;
    static unsigned launch_id = 0;
    static host_times times;
    if (!stream) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaMalloc(&d_partials, num_sms * sizeof(MaxSum));
        cudaMalloc(&d_barrier, sizeof(grid_barrier));
        cudaMemset(d_barrier, 0, sizeof(grid_barrier));
        cudaDeviceSynchronize();  // the first call is an example's, never held back
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    }
    // At most one block per SM, so the barrier's blocks are always resident together.
    const int num_vecs = N / 4;
    const int blocks = std::clamp((num_vecs + kThreads * kVecsPerThread - 1) / (kThreads * kVecsPerThread), 1, num_sms);
    ++launch_id;
    softmax_on_private_stream<<<blocks, kThreads, 0, stream>>>(input, output, N, d_partials, d_barrier, launch_id);

    const double event_us = std::max(kMinEventUs, kShareOfHostTime * times.median() + 1.0);
    pad<<<1, 32>>>(static_cast<unsigned long long>(1e3 * std::max(0.0, event_us - kEmptyKernelUs)));
    times.add(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - entry).count());
}
