// expect: accepted
// step: 1
// Technique: shared-memory tree with sequential addressing: each thread adds two elements per grid-stride
// step, the block halves its active threads each round (contiguous, no divergence inside the early warps,
// no bank conflicts), and one atomicAdd per block adds the block's sum to the zeroed output.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;  // the halving tree needs a power of two
constexpr int kMaxBlocks = 1024;

__global__ void reduce_tree_kernel(const float* input, float* output, int N) {
    // First add during the load: a block covers 2 * blockDim.x elements per step.
    float sum = 0.0f;
    const int stride = 2 * gridDim.x * blockDim.x;
    for (int i = 2 * blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) {
        sum += input[i];
        if (i + blockDim.x < N) sum += input[i + blockDim.x];
    }

    __shared__ float partial[kThreads];
    partial[threadIdx.x] = sum;
    __syncthreads();

    // Sequential addressing: thread t adds partial[t + s]; the active half shrinks each round.
    for (int s = kThreads / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }

    if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    int blocks = (N + 2 * kThreads - 1) / (2 * kThreads);
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    cudaMemset(output, 0, sizeof(float));  // the output arrives poisoned; atomics need a zero to add to
    reduce_tree_kernel<<<blocks, kThreads>>>(input, output, N);
}
