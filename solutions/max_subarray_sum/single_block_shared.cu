// expect: accepted
// step: 2
// Technique: at N <= 50,000 the input is 200 KB and the call is launch-latency bound, so one block does it
// all in one launch: int4 loads into ~200 KB of dynamic shared memory, a per-thread chunk scan joined by a
// warp-shuffle (__shfl_up_sync) block scan, then window sums P[i + w] - P[i] and a shuffle max. No memset, no
// atomics, no second kernel.
#include <cuda_runtime.h>

#include <climits>

namespace {

constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;
static_assert(kWarps == 32, "the block scan gives each lane of warp 0 one warp total");
constexpr int kMaxN = 50000;

// Exclusive block-wide scan of one value per thread.
__device__ int block_exclusive_scan(int value, int* warp_totals) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int inclusive = value;
    for (int offset = 1; offset < 32; offset *= 2) {
        const int up = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += up;
    }
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        int total = warp_totals[lane];  // kWarps == 32: one per lane
        for (int offset = 1; offset < 32; offset *= 2) {
            const int up = __shfl_up_sync(0xffffffffu, total, offset);
            if (lane >= offset) total += up;
        }
        warp_totals[lane] = total - warp_totals[lane];  // exclusive prefix of the warp totals
    }
    __syncthreads();
    return warp_totals[warp] + inclusive - value;
}

// Steps 2 and 3 below: scans prefix[1..N] in place (prefix[0] is 0) and returns the best sum of
// window_size neighbours, in thread 0.
__device__ int best_window_sum(int* prefix, int N, int window_size, int* scratch) {
    const int t = threadIdx.x;
    // 2. Each thread scans its own chunk in place, offset by the sum of the chunks before it.
    const int chunk = (N + kThreads - 1) / kThreads;
    const int begin = min(N, t * chunk) + 1, end = min(N, (t + 1) * chunk) + 1;
    int chunk_sum = 0;
    for (int i = begin; i < end; ++i) chunk_sum += prefix[i];
    int running = block_exclusive_scan(chunk_sum, scratch);
    for (int i = begin; i < end; ++i) {
        running += prefix[i];
        prefix[i] = running;
    }
    __syncthreads();

    // 3. Best window per thread, then per warp, then per block.
    int best = INT_MIN;
    for (int i = t; i <= N - window_size; i += kThreads)
        best = max(best, prefix[i + window_size] - prefix[i]);
    for (int offset = 16; offset > 0; offset /= 2)
        best = max(best, __shfl_down_sync(0xffffffffu, best, offset));
    if (t % 32 == 0) scratch[t / 32] = best;
    __syncthreads();
    if (t < 32) {
        best = scratch[t];
        for (int offset = 16; offset > 0; offset /= 2)
            best = max(best, __shfl_down_sync(0xffffffffu, best, offset));
    }
    return best;
}

__global__ void __launch_bounds__(kThreads)
    max_window_kernel(const int* input, int* output, int N, int window_size) {
    extern __shared__ int prefix[];  // N + 1 ints: prefix[i] = input[0] + ... + input[i - 1]
    __shared__ int scratch[kWarps];
    const int t = threadIdx.x;

    // 1. Stage the input at prefix[1..N] with 16-byte loads.
    const int num_vectors = N / 4;
    for (int v = t; v < num_vectors; v += kThreads) {
        const int4 q = __ldg(reinterpret_cast<const int4*>(input) + v);
        prefix[4 * v + 1] = q.x;
        prefix[4 * v + 2] = q.y;
        prefix[4 * v + 3] = q.z;
        prefix[4 * v + 4] = q.w;
    }
    if (t < N - 4 * num_vectors) prefix[4 * num_vectors + t + 1] = input[4 * num_vectors + t];
    if (t == 0) prefix[0] = 0;
    __syncthreads();

    const int best = best_window_sum(prefix, N, window_size, scratch);
    if (t == 0) output[0] = best;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    const int shared_bytes = (N + 1) * static_cast<int>(sizeof(int));
    // Above 48 KB of dynamic shared memory a kernel must opt in; kMaxN + 1 ints is 200 KB (H100 allows 227
    // KB).
    static bool opted_in = false;
    if (!opted_in) {
        cudaFuncSetAttribute(max_window_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (kMaxN + 1) * static_cast<int>(sizeof(int)));
        opted_in = true;
    }
    max_window_kernel<<<1, kThreads, shared_bytes>>>(input, output, N, window_size);
}
