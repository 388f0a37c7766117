// expect: wrong_answer
// Mistake: shared-memory histogram that zeroes and publishes bins with "one thread per bin", which only
// covers bin < blockDim.x. With 256 threads, bins 256..1023 are counted in shared memory but never added
// to the global histogram, which keeps the zeros of the memset.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBins = 1024;

__global__ void histogram_shared(const int* input, int* histogram, int N, int num_bins) {
    __shared__ int block_histogram[kMaxBins];
    if (threadIdx.x < num_bins) block_histogram[threadIdx.x] = 0;  // should loop over all num_bins
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&block_histogram[input[i]], 1);
    __syncthreads();

    if (threadIdx.x < num_bins) atomicAdd(&histogram[threadIdx.x], block_histogram[threadIdx.x]);
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    cudaMemset(histogram, 0, num_bins * sizeof(int));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    histogram_shared<<<blocks, kThreads>>>(input, histogram, N, num_bins);
}
