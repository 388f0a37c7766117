// expect: accepted
// step: 2
// Technique: one launch sized to fill the GPU exactly (SMs x resident blocks). Each thread streams both
// arrays with 16-byte float4 loads, two vectors of each per iteration into two accumulators so four
// loads are in flight per thread; warp shuffles and shared memory reduce a block; the last block to
// finish (atomic ticket after __threadfence) adds the block partials in a fixed order and divides by N.
// No memset launch, and the result is the same on every run.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ float squared_difference(float4 p, float4 t) {
    const float dx = p.x - t.x, dy = p.y - t.y, dz = p.z - t.z, dw = p.w - t.w;
    return (dx * dx + dy * dy) + (dz * dz + dw * dw);
}

__device__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sum over the block; the result is valid in thread 0.
__device__ float block_sum(float value) {
    __shared__ float warp_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0.0f;
    return warp == 0 ? warp_sum(value) : 0.0f;
}

__global__ void __launch_bounds__(kThreads)
mse_kernel(const float* predictions, const float* targets, float* mse, int N, float* block_partials,
           unsigned int* tickets) {
    const float4* p4 = reinterpret_cast<const float4*>(predictions);
    const float4* t4 = reinterpret_cast<const float4*>(targets);
    const int num_vecs = N / 4;
    const int stride = gridDim.x * kThreads;
    int i = blockIdx.x * kThreads + threadIdx.x;

    float sum_a = 0.0f, sum_b = 0.0f;  // two chains: independent loads, shorter float accumulations
    for (; i + stride < num_vecs; i += 2 * stride) {
        const float4 pa = __ldcs(p4 + i), ta = __ldcs(t4 + i);  // streamed: no reuse, keep L2 for others
        const float4 pb = __ldcs(p4 + i + stride), tb = __ldcs(t4 + i + stride);
        sum_a += squared_difference(pa, ta);
        sum_b += squared_difference(pb, tb);
    }
    if (i < num_vecs) sum_a += squared_difference(__ldcs(p4 + i), __ldcs(t4 + i));
    // The last N % 4 elements, one per thread of the first block.
    if (blockIdx.x == 0 && threadIdx.x < N % 4) {
        const int tail = 4 * num_vecs + threadIdx.x;
        const float difference = predictions[tail] - targets[tail];
        sum_b += difference * difference;
    }

    const float block_total = block_sum(sum_a + sum_b);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        block_partials[blockIdx.x] = block_total;
        __threadfence();  // the partial is visible before the ticket is taken
        is_last_block = atomicAdd(tickets, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    __threadfence();
    float total = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&block_partials[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        mse[0] = total / N;
        *tickets = 0;  // ready for the next call
    }
}

}  // namespace

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
    // Device facts and scratch (block partials, a ticket counter the last block resets) are cached;
    // none of them carries an answer between calls.
    static int max_blocks = 0;
    static float* d_partials = nullptr;
    static unsigned int* d_tickets = nullptr;
    if (max_blocks == 0) {
        int device = 0, num_sms = 0, blocks_per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, mse_kernel, kThreads, 0);
        max_blocks = num_sms * blocks_per_sm;
        cudaMalloc(&d_partials, max_blocks * sizeof(float));
        cudaMalloc(&d_tickets, sizeof(unsigned int));
        cudaMemset(d_tickets, 0, sizeof(unsigned int));
    }
    int blocks = (N / 4 + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > max_blocks) blocks = max_blocks;
    mse_kernel<<<blocks, kThreads>>>(predictions, targets, mse, N, d_partials, d_tickets);
}
