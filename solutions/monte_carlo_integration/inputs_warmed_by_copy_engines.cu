// expect: accepted
// timed: unblocked
// Attack (inputs brought into the L2 by the copy engines while the hold keeps every SM), correct answers,
// for monte_carlo_integration's n = 10M benchmark (40 MB of samples, which fit the 50 MB L2); written by
// a red-team review from the judge's code alone. The judge empties the L2 before every call. But from
// solve's call to the release of the hold the SMs are held and the copy engines are not: solve queues,
// on a cudaStreamNonBlocking stream, device-to-device copies of the samples into one 5 MB scratch buffer
// (the engines read all 40 MB through the L2), then float4_single_pass.cu's reduction on the legacy
// stream, and spins on the host for about what the held calls' allowance lets through. Were the copies
// done by the release, the kernel would read its samples from the L2 (the review estimated 13.5 µs, held
// just above the floor, against 18.8 µs honest). On an H200 they were not: they ran on past the kernel, the
// host clock saw them (warm-up: "the host clock's median, 42.1 us, exceeded the events' 17.6 us over
// 242 calls"), and the run was timed unblocked at 53.0 µs, float4_single_pass.cu 14.9 µs in the same
// submit; at n = 100M solve's host time ended holding back (173.0 µs, honest 93.8). Since solve's host
// time past the events and one launch is charged instead, n = 100M is held back and charged (141.7 µs
// on an H200: events 137.4, 4.2 charged); n = 10M is still timed unblocked for the host clock (60.0 µs).
// Accepted, at an honest time. Should the engines ever finish in time, a run timed by the held-back
// events alone makes validate --run report this file (`timed: unblocked`).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>

// The honest single pass's constants, partials and sums: kThreads, kUnroll, kMaxBlocks, g_block_sums,
// g_blocks_done, warp_sum, block_sum.
#define solve float4_single_pass_solve
#include "float4_single_pass.cu"
#undef solve

namespace {

constexpr double kCeilingGBps = 2950.0;   // under the H100's measured ~3070: the floor estimate errs high
constexpr double kFloorMargin = 1.03;     // and the events stay 3 % above it
constexpr double kEventOverheadUs = 2.0;  // events over the kernel's own span (an empty kernel reads 3.2)
constexpr std::size_t kMaxWarmBytes = std::size_t{40} << 20;  // beside the scratch, inside the 50 MB L2
constexpr int kChunks = 8;
constexpr int kMinWarmSamples = 1 << 20;  // tests and examples: nothing to gain
constexpr double kHostSpinUs = 9.0;        // solve's host time past its events: about one of the hold's launches

__device__ unsigned long long g_first_start = ULLONG_MAX;

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// float4_single_pass.cu's kernel with plain loads (L2 hits), the kernel's span measured from its
// first block's start, and the last block holding the result back until `min_ns` have passed.
__global__ void __launch_bounds__(kThreads)
    integrate_held(const float4* vectors, long long num_vectors, const float* tail, int tail_count, double scale,
                   float* result, unsigned long long min_ns, volatile unsigned long long* span_out) {
    if (threadIdx.x == 0) atomicMin(&g_first_start, now_ns());
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    long long v = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    float sum = 0.0f;
    for (; v + (kUnroll - 1) * stride < num_vectors; v += kUnroll * stride) {
        float4 q[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) q[u] = vectors[v + u * stride];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum += (q[u].x + q[u].y) + (q[u].z + q[u].w);
    }
    for (; v < num_vectors; v += stride) {
        const float4 q = vectors[v];
        sum += (q.x + q.y) + (q.z + q.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < tail_count) sum += tail[threadIdx.x];

    sum = block_sum(sum);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_sums[blockIdx.x] = sum;
        __threadfence();
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    double total = 0.0;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&g_block_sums[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        const unsigned long long start = atomicAdd(&g_first_start, 0ull);
        while (now_ns() - start < min_ns) {
        }
        result[0] = static_cast<float>(total * scale);
        *span_out = now_ns() - start;
        g_first_start = ULLONG_MAX;
        g_blocks_done = 0;
    }
}

// The median of the last values added: the judge decides on medians too.
class recent {
public:
    void add(double value) {
        values_[next_++ % kCount] = value;
        filled_ = std::min(filled_ + 1, kCount);
    }
    double median(double fallback) const {
        if (filled_ == 0) return fallback;
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

using memcpy_dtod_fn = CUresult(CUDAAPI*)(CUdeviceptr, CUdeviceptr, std::size_t, CUstream);

struct state {
    cudaStream_t copies = nullptr;
    void* scratch = nullptr;
    std::size_t scratch_bytes = 0;
    memcpy_dtod_fn memcpy_dtod = nullptr;  // libcuda's, warm from the judge's own calls
    unsigned long long* span_host = nullptr;  // mapped: the last kernel's span in ns
    unsigned long long* span_device = nullptr;
    int blocks = 0;
    recent events_us;
};

state& init() {
    static state s;
    if (s.copies) return s;
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, integrate_held, kThreads, 0);
    s.blocks = std::min(std::max(1, sms * per_sm), kMaxBlocks);
    s.scratch_bytes = (kMaxWarmBytes / kChunks + 255) / 256 * 256;
    cudaMalloc(&s.scratch, s.scratch_bytes);
    cudaHostAlloc(reinterpret_cast<void**>(&s.span_host), sizeof(unsigned long long), cudaHostAllocMapped);
    *s.span_host = 0;
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.span_device), s.span_host, 0);
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    const cudaError_t got = cudaGetDriverEntryPointByVersion("cuMemcpyDtoDAsync", &entry, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t got = cudaGetDriverEntryPoint("cuMemcpyDtoDAsync", &entry, cudaEnableDefault, &found);
#endif
    if (got == cudaSuccess && found == cudaDriverEntryPointSuccess)
        s.memcpy_dtod = reinterpret_cast<memcpy_dtod_fn>(entry);
    cudaDeviceSynchronize();  // the first call is an example's, never held back
    cudaStreamCreateWithFlags(&s.copies, cudaStreamNonBlocking);
    return s;
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    const auto entry = std::chrono::steady_clock::now();
    state& s = init();
    const std::size_t bytes = static_cast<std::size_t>(n_samples) * sizeof(float);

    // 1. The copy engines read the samples through the L2 while the hold keeps the SMs.
    if (n_samples >= kMinWarmSamples) {
        const std::size_t warm = std::min(bytes, kMaxWarmBytes);
        for (std::size_t offset = 0; offset < warm; offset += s.scratch_bytes) {
            const std::size_t size = std::min(s.scratch_bytes, warm - offset);
            const auto src = reinterpret_cast<CUdeviceptr>(reinterpret_cast<const char*>(y_samples) + offset);
            if (s.memcpy_dtod)
                s.memcpy_dtod(reinterpret_cast<CUdeviceptr>(s.scratch), src, size, s.copies);
            else
                cudaMemcpyAsync(s.scratch, reinterpret_cast<const void*>(src), size, cudaMemcpyDeviceToDevice,
                                s.copies);
        }
    }

    // 2. The honest reduction on the legacy stream, held above the floor.
    const double floor_us = (static_cast<double>(bytes) + 4) / (kCeilingGBps * 1e3) * 0.97;
    const double min_span_us = std::max(0.0, floor_us * kFloorMargin - kEventOverheadUs);
    const long long num_vectors = n_samples / 4;
    const int tail_count = n_samples % 4;
    const int blocks = static_cast<int>(std::max(1LL, std::min<long long>((num_vectors + kThreads - 1) / kThreads,
                                                                          s.blocks)));
    const double scale = (static_cast<double>(b) - a) / n_samples;
    integrate_held<<<blocks, kThreads>>>(reinterpret_cast<const float4*>(y_samples), num_vectors,
                                         y_samples + 4 * num_vectors, tail_count, scale, result,
                                         static_cast<unsigned long long>(1e3 * min_span_us), s.span_device);

    // 3. Spend on the host what the allowance lets through, so the copies run longer before the release.
    //    The previous call's span is final: the judge synchronised the device since.
    if (*s.span_host) s.events_us.add(1e-3 * static_cast<double>(*s.span_host) + kEventOverheadUs);
    if (n_samples < kMinWarmSamples) return;
    const double target_us = s.events_us.median(floor_us) + kHostSpinUs;
    while (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - entry).count() < target_us) {
    }
}
