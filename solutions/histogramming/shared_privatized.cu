// expect: accepted
// step: 2
// Technique: privatisation. Each block counts into its own histogram in shared memory (fast atomics, little
// contention), then adds each non-empty bin to the global histogram once: N global atomics become
// blocks * num_bins.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void histogram_shared(const int* input, int* histogram, int N, int num_bins) {
    extern __shared__ int block_histogram[];
    // Loops of stride blockDim.x: num_bins may exceed the number of threads.
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) block_histogram[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&block_histogram[input[i]], 1);
    __syncthreads();  // every count of this block is in before it is published

    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (block_histogram[b] != 0) atomicAdd(&histogram[b], block_histogram[b]);
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    cudaMemset(histogram, 0, num_bins * sizeof(int));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_shared<<<blocks, kThreads, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
}
