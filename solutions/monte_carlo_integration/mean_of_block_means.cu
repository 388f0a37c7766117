// expect: wrong_answer
// Mistake: averages the per-block means. The last block holds fewer samples than the others, yet
// its mean gets the same weight, so the answer is wrong whenever n_samples is not a multiple of
// the block size.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void block_means(const float* y_samples, float* result, float scale, int n_samples) {
    __shared__ float partial[kThreads];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n_samples ? y_samples[i] : 0.0f;
    __syncthreads();
    for (int active = blockDim.x / 2; active > 0; active /= 2) {
        if (threadIdx.x < active) partial[threadIdx.x] += partial[threadIdx.x + active];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const int block_start = blockIdx.x * blockDim.x;
        const int in_block = min(kThreads, n_samples - block_start);
        atomicAdd(result, scale * (partial[0] / in_block));  // each block's mean, equally weighted
    }
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    const int blocks = (n_samples + kThreads - 1) / kThreads;
    cudaMemset(result, 0, sizeof(float));
    block_means<<<blocks, kThreads>>>(y_samples, result, (b - a) / blocks, n_samples);
}
