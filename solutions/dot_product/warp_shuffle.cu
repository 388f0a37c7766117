// expect: accepted
// step: 2
// Technique: two-stage reduction with warp shuffles (__shfl_down_sync): the first kernel writes one partial
// per block to scratch memory, a second one-block kernel sums the partials and writes the result, so no
// memset and no atomics are needed and the answer is the same on every run.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 528;  // 4 blocks for each of an H100's 132 SMs

__device__ float warp_sum(float value) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sums a value across the block; the total is valid in thread 0.
__device__ float block_sum(float value) {
    __shared__ float warp_sums[kThreads / 32];
    const int lane = threadIdx.x % warpSize;
    const int warp = threadIdx.x / warpSize;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (warp == 0) value = warp_sum(value);
    return value;
}

__global__ void partial_dot_kernel(const float* A, const float* B, float* partials, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum = fmaf(A[i], B[i], sum);
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void final_sum_kernel(const float* partials, float* result, int num_partials) {
    float sum = 0.0f;
    for (int i = threadIdx.x; i < num_partials; i += blockDim.x) sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) result[0] = sum;  // a plain store: this kernel owns the whole answer
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    // Scratch for the per-block partials, allocated once (it never holds an answer between calls).
    static float* d_partials = nullptr;
    if (d_partials == nullptr) cudaMalloc(&d_partials, kBlocks * sizeof(float));

    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    partial_dot_kernel<<<blocks, kThreads>>>(A, B, d_partials, N);
    final_sum_kernel<<<1, kThreads>>>(d_partials, result, blocks);
}
