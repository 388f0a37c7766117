// expect: accepted
// step: 2
// Technique: rows are contiguous, so the matrix is read as one flat array with int4 loads (several in
// flight per thread). Each block stores its count as a partial; the last block to finish (found with an
// atomic ticket after __threadfence) adds the partials and writes output. One launch, no memset.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;
constexpr int kMaxBlocks = 4096;

__device__ int matches(int4 v, int K) { return (v.x == K) + (v.y == K) + (v.z == K) + (v.w == K); }

// Sum over the block, valid in thread 0.
__device__ int block_sum(int value) {
    __shared__ int warp_sums[kThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    value = 0;
    if (threadIdx.x < 32) {
        value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0;
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    return value;
}

__global__ void __launch_bounds__(kThreads) count_flat(const int* input, int* output, int total, int K,
                                                       int* partials, unsigned int* blocks_done) {
    // cudaMalloc'd buffers are 256-byte aligned, so the int4 view is safe; the total % 4 tail is read singly.
    const int4* input4 = reinterpret_cast<const int4*>(input);
    const int num_vectors = total / 4;
    const int stride = gridDim.x * kThreads;
    int i = blockIdx.x * kThreads + threadIdx.x;
    int count = 0;
    for (; i + (kUnroll - 1) * stride < num_vectors; i += kUnroll * stride) {
        int4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(&input4[i + u * stride]);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count += matches(v[u], K);
    }
    for (; i < num_vectors; i += stride) count += matches(__ldg(&input4[i]), K);
    const int tail = 4 * num_vectors + blockIdx.x * kThreads + threadIdx.x;
    if (tail < total) count += input[tail] == K;

    count = block_sum(count);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = count;
        __threadfence();  // the partial is visible device-wide before the ticket is taken
        is_last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    // The last block: all partials are in. volatile reads bypass any stale L1 copy.
    int all = 0;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) all += static_cast<volatile int*>(partials)[b];
    all = block_sum(all);
    if (threadIdx.x == 0) {
        output[0] = all;
        *blocks_done = 0;  // ready for the next call (launches on one stream never overlap)
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
    // Scratch kept between calls: one partial per block, rewritten every call, and the ticket counter,
    // which the last block resets to zero.
    static int grid = 0;
    static int* d_partials = nullptr;
    static unsigned int* d_blocks_done = nullptr;
    if (grid == 0) {
        int device = 0, num_sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_flat, kThreads, 0);
        grid = num_sms * (per_sm > 0 ? per_sm : 1);
        if (grid > kMaxBlocks) grid = kMaxBlocks;
        cudaMalloc(&d_partials, kMaxBlocks * sizeof(int));
        cudaMalloc(&d_blocks_done, sizeof(unsigned int));
        cudaMemset(d_blocks_done, 0, sizeof(unsigned int));
    }
    const int total = N * M;  // at most 10^8: fits an int
    int blocks = (total / 4 + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > grid) blocks = grid;
    count_flat<<<blocks, kThreads>>>(input, output, total, K, d_partials, d_blocks_done);
}
