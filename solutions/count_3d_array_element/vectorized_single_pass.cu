// expect: accepted
// step: 3
// Technique: one launch at full bandwidth: 16-byte int4 loads (four in flight per thread per step),
// warp shuffle and a block sum, per-block counts in a static device array, and the last block to
// finish (an atomic ticket) adds them and writes output[0], so no memset launch is needed either.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;
constexpr int kMaxBlocks = 2048;

__device__ int g_block_counts[kMaxBlocks];  // scratch: one count per block of the current launch
__device__ unsigned int g_blocks_done = 0;  // the last block of every launch puts it back to 0

__device__ __forceinline__ int matches(int4 v, int P) {
    return (v.x == P) + (v.y == P) + (v.z == P) + (v.w == P);
}

__device__ __forceinline__ int warp_sum(int value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sum of one value per thread; the result is valid in thread 0.
__device__ int block_sum(int value) {
    __shared__ int warp_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0;
    return warp == 0 ? warp_sum(value) : 0;
}

__global__ void __launch_bounds__(kThreads) count_kernel(const int4* vectors, long long num_vectors,
                                                         const int* tail, int tail_count, int P,
                                                         int* output) {
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    long long v = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    int count = 0;
    // Issue all kUnroll loads before using any, so each thread keeps 64 bytes in flight.
    for (; v + (kUnroll - 1) * stride < num_vectors; v += kUnroll * stride) {
        int4 q[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) q[u] = __ldcs(vectors + v + u * stride);  // streamed: read once
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count += matches(q[u], P);
    }
    for (; v < num_vectors; v += stride) count += matches(__ldcs(vectors + v), P);
    // The last (N·M·K) % 4 elements do not fill a vector.
    if (blockIdx.x == 0 && threadIdx.x < tail_count) count += (tail[threadIdx.x] == P);

    count = block_sum(count);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_counts[blockIdx.x] = count;
        __threadfence();  // make the count visible to every block before taking a ticket
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    // All other blocks have published their counts; __ldcg reads them from L2, never a stale L1.
    int total = 0;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&g_block_counts[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        *output = total;
        g_blocks_done = 0;
    }
}

int resident_blocks() {
    static int blocks = 0;  // a property of the device, not of any input
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_kernel, kThreads, 0);
        blocks = sms * per_sm < kMaxBlocks ? sms * per_sm : kMaxBlocks;
    }
    return blocks;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    const long long num_vectors = total / 4;  // cudaMalloc buffers are 256-byte aligned: int4 loads are safe
    const int tail_count = static_cast<int>(total % 4);
    long long blocks = (num_vectors + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > resident_blocks()) blocks = resident_blocks();  // fill the GPU once; the loop does the rest
    count_kernel<<<static_cast<int>(blocks), kThreads>>>(reinterpret_cast<const int4*>(input), num_vectors,
                                                         input + 4 * num_vectors, tail_count, P, output);
}
