// expect: accepted
// step: 1
// Technique: grid-stride products into one partial per thread, then a shared-memory tree with sequential
// addressing (the active threads stay contiguous, so no warp diverges and no bank conflicts), one atomicAdd
// per block into a result zeroed by cudaMemset.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;  // the halving tree needs a power of two
constexpr int kMaxBlocks = 1024;

__global__ void dot_tree_kernel(const float* A, const float* B, float* result, int N) {
    // Each thread first sums its own products; the grid covers any N with a fixed number of blocks.
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];

    __shared__ float partial[kThreads];
    partial[threadIdx.x] = sum;
    __syncthreads();

    // Sequential addressing: thread t adds partial[t + stride]; the stride halves each round.
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }

    if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    cudaMemset(result, 0, sizeof(float));  // the output arrives poisoned; atomics need a zero to add to
    dot_tree_kernel<<<blocks, kThreads>>>(A, B, result, N);
}
