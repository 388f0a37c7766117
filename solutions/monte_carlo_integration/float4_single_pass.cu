// expect: accepted
// step: 2
// Technique: one launch at full bandwidth: float4 loads (four in flight per thread per step), warp
// shuffle and a block sum, per-block partials in a static device array, and the last block to
// finish (an atomic ticket) adds them in double, scales by (b - a) / n and writes result[0].
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;
constexpr int kMaxBlocks = 2048;

__device__ float g_block_sums[kMaxBlocks];  // scratch: one partial per block of the current launch
__device__ unsigned int g_blocks_done = 0;  // the last block of every launch puts it back to 0

template <typename T>
__device__ __forceinline__ T warp_sum(T value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sum of one value per thread; the result is valid in thread 0.
template <typename T>
__device__ T block_sum(T value) {
    __shared__ T warp_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : T(0);
    return warp == 0 ? warp_sum(value) : T(0);
}

__global__ void __launch_bounds__(kThreads) integrate(const float4* vectors, long long num_vectors,
                                                      const float* tail, int tail_count, double scale,
                                                      float* result) {
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    long long v = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    float sum = 0.0f;
    // Issue all kUnroll loads before using any, so each thread keeps 64 bytes in flight.
    for (; v + (kUnroll - 1) * stride < num_vectors; v += kUnroll * stride) {
        float4 q[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) q[u] = __ldcs(vectors + v + u * stride);  // streamed: read once
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum += (q[u].x + q[u].y) + (q[u].z + q[u].w);
    }
    for (; v < num_vectors; v += stride) {
        const float4 q = __ldcs(vectors + v);
        sum += (q.x + q.y) + (q.z + q.w);
    }
    // The last n % 4 samples do not fill a vector.
    if (blockIdx.x == 0 && threadIdx.x < tail_count) sum += tail[threadIdx.x];

    sum = block_sum(sum);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_sums[blockIdx.x] = sum;
        __threadfence();  // make the partial visible to every block before taking a ticket
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    // All other blocks have published their partials; __ldcg reads them from L2, never a stale L1.
    // A few thousand additions in double cost nothing and add no rounding of their own.
    double total = 0.0;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&g_block_sums[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        result[0] = static_cast<float>(total * scale);
        g_blocks_done = 0;
    }
}

int resident_blocks() {
    static int blocks = 0;  // a property of the device, not of any input
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, integrate, kThreads, 0);
        blocks = sms * per_sm < kMaxBlocks ? sms * per_sm : kMaxBlocks;
    }
    return blocks;
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    const long long num_vectors = n_samples / 4;  // cudaMalloc buffers are 256-byte aligned
    const int tail_count = n_samples % 4;
    long long blocks = (num_vectors + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > resident_blocks()) blocks = resident_blocks();  // fill the GPU once; the loop does the rest
    const double scale = (static_cast<double>(b) - a) / n_samples;
    integrate<<<static_cast<int>(blocks), kThreads>>>(reinterpret_cast<const float4*>(y_samples), num_vectors,
                                                      y_samples + 4 * num_vectors, tail_count, scale, result);
}
