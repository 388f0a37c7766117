// expect: runtime_error
// Mistake: `cudaMalloc((void**)d_partials, ...)` passes the pointer's value (null) instead of its address
// (&d_partials); the cast silences the compiler, the allocation fails unchecked, and the kernel writes the
// per-block partials through a null device pointer: an illegal memory access.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 264;

__device__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void partial_dot_kernel(const float* A, const float* B, float* partials, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];
    __shared__ float warp_sums[kThreads / 32];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float block_total = 0.0f;
        for (int w = 0; w < kThreads / 32; ++w) block_total += warp_sums[w];
        partials[blockIdx.x] = block_total;  // partials is null: the GPU faults here
    }
}

__global__ void final_sum_kernel(const float* partials, float* result, int num_partials) {
    float total = 0.0f;
    for (int b = 0; b < num_partials; ++b) total += partials[b];
    result[0] = total;
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    float* d_partials = nullptr;
    cudaMalloc((void**)d_partials, kBlocks * sizeof(float));  // should be &d_partials; returns an error
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    partial_dot_kernel<<<blocks, kThreads>>>(A, B, d_partials, N);
    final_sum_kernel<<<1, 1>>>(d_partials, result, blocks);
    cudaFree(d_partials);
}
