// expect: wrong_answer
// cause: one_block
// Mistake: each block sums its own 512 elements in a shared-memory tree, then thread 0 stores the block's
// sum with `*output = partial[0]` instead of adding it with atomicAdd. Every block overwrites the others,
// so the output holds one block's share, whichever block stored last. Right while one block covers all.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;  // each block covers 2 * kThreads elements, with no grid-stride loop

__global__ void block_sum_kernel(const float* input, float* output, int N) {
    const int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float partial[kThreads];
    float sum = i < N ? input[i] : 0.0f;
    if (i + blockDim.x < N) sum += input[i + blockDim.x];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *output = partial[0];  // should be atomicAdd(output, partial[0]) on a zeroed output
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    const int blocks = (N + 2 * kThreads - 1) / (2 * kThreads);
    block_sum_kernel<<<blocks, kThreads>>>(input, output, N);
}
