// expect: accepted
// step: 3
// Technique: bandwidth-bound single pass: 16-byte float4 loads of A and B, several independent loads in
// flight per thread, about two blocks per SM, and a last-block finish (per-block partials plus a ticket
// counter) so one launch computes and writes the result, in the same order on every run.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 2;
constexpr int kUnroll = 4;       // float4 pairs loaded back to back before any arithmetic uses them
constexpr int kMaxBlocks = 1024;

// Scratch shared by the blocks of one launch. The last block resets the counter for the next call.
__device__ float g_block_partials[kMaxBlocks];
__device__ unsigned int g_blocks_done = 0;

__device__ float dot4(float4 a, float4 b, float sum) {
    sum = fmaf(a.x, b.x, sum);
    sum = fmaf(a.y, b.y, sum);
    sum = fmaf(a.z, b.z, sum);
    return fmaf(a.w, b.w, sum);
}

__device__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sums a value across the block; the total is valid in thread 0.
__device__ float block_sum(float value) {
    __shared__ float warp_sums[kThreads / 32];
    value = warp_sum(value);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32) value = warp_sum(value);
    __syncthreads();  // warp_sums may be reused by a later call in the same block
    return value;
}

__global__ void __launch_bounds__(kThreads)
dot_float4_kernel(const float4* __restrict__ A4, const float4* __restrict__ B4, const float* __restrict__ A,
                  const float* __restrict__ B, float* __restrict__ result, int N) {
    const int num_vectors = N / 4;
    const int chunk = kThreads * kUnroll;  // vectors one block covers per step
    float sum = 0.0f;

    // Full chunks: kUnroll coalesced float4 loads of each input are issued before they are consumed.
    int v = blockIdx.x * chunk + threadIdx.x;
    for (; v + (kUnroll - 1) * kThreads < num_vectors; v += gridDim.x * chunk) {
        float4 a[kUnroll], b[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            a[u] = __ldcs(A4 + v + u * kThreads);  // streamed once: evict-first
            b[u] = __ldcs(B4 + v + u * kThreads);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum = dot4(a[u], b[u], sum);
    }
    // The one partial chunk (at most one per block) ends inside this block's stretch.
    for (; v < num_vectors; v += kThreads) sum = dot4(A4[v], B4[v], sum);

    // The N % 4 scalars after the last whole float4.
    const int tail = num_vectors * 4 + blockIdx.x * kThreads + threadIdx.x;
    if (tail < N && blockIdx.x == 0) sum = fmaf(A[tail], B[tail], sum);

    sum = block_sum(sum);

    // Last-block finish: publish this block's partial, then take a ticket; the block that draws the last
    // ticket sees every partial (thanks to the fence) and adds them up in block order.
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_partials[blockIdx.x] = sum;
        __threadfence();
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    float total = 0.0f;
    for (int i = threadIdx.x; i < gridDim.x; i += kThreads) total += __ldcg(&g_block_partials[i]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        result[0] = total;
        g_blocks_done = 0;
    }
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    static int num_sms = 0;
    if (num_sms == 0) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
    }
    // Enough blocks to fill the GPU, but no more than there are chunks of work (cudaMalloc'd buffers are
    // 256-byte aligned, so the float4 views are safe).
    const int chunks = (N / 4 + kThreads * kUnroll - 1) / (kThreads * kUnroll);
    int blocks = num_sms * kBlocksPerSm;
    if (blocks > chunks) blocks = chunks;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks < 1) blocks = 1;
    dot_float4_kernel<<<blocks, kThreads>>>(reinterpret_cast<const float4*>(A),
                                            reinterpret_cast<const float4*>(B), A, B, result, N);
}
