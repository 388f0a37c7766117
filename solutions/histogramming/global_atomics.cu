// expect: accepted
// step: 1
// Technique: the direct translation, one global atomicAdd per element. Correct, and the speed every other
// solution must beat: with few bins, thousands of threads queue on the same few addresses in L2.
#include <cuda_runtime.h>

__global__ void histogram_global(const int* input, int* histogram, int N) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    // The judge hands over an output full of garbage: counting must start from zero.
    cudaMemset(histogram, 0, num_bins * sizeof(int));
    int blocks = (N + 255) / 256;
    if (blocks > 2048) blocks = 2048;
    histogram_global<<<blocks, 256>>>(input, histogram, N);
}
