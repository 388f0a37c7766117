// expect: accepted
// step: 1
// Technique: __syncthreads_count: one barrier both synchronises the block and counts the threads
// whose predicate holds, so a block counts blockDim.x elements per step without any shared array.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;

__global__ void count_kernel(const int* input, int* output, long long total, int P) {
    int block_count = 0;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    // The loop bound depends only on the block's base, never on threadIdx: every thread of the
    // block must reach each __syncthreads_count, including those past the end of the array.
    for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < total; base += stride) {
        const long long i = base + threadIdx.x;
        const int match = i < total && input[i] == P;
        block_count += __syncthreads_count(match);  // every thread receives the block's total
    }
    if (threadIdx.x == 0 && block_count > 0) atomicAdd(output, block_count);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    long long blocks = (total + kThreads - 1) / kThreads;
    if (blocks > 528) blocks = 528;  // 4 blocks of 512 threads per SM on a 132-SM H100
    cudaMemset(output, 0, sizeof(int));
    count_kernel<<<static_cast<int>(blocks), kThreads>>>(input, output, total, P);
}
