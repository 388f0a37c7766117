// expect: accepted
// step: 1
// Technique: the classic shared-memory tree with sequential addressing: each thread sums a strided
// slice of [S, E], the block halves its active threads each step, and thread 0 adds the block's
// total into output with one atomicAdd.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void range_sum(const int* input, int* output, int S, int E) {
    __shared__ int partial[kThreads];
    int sum = 0;
    for (int i = S + blockIdx.x * blockDim.x + threadIdx.x; i <= E; i += gridDim.x * blockDim.x)
        sum += input[i];
    partial[threadIdx.x] = sum;
    __syncthreads();

    // Sequential addressing: thread t adds partial[t + active]. The working threads stay packed at
    // the front, so whole warps go idle together and consecutive threads touch consecutive banks.
    for (int active = blockDim.x / 2; active > 0; active /= 2) {
        if (threadIdx.x < active) partial[threadIdx.x] += partial[threadIdx.x + active];
        __syncthreads();  // every addition of this step lands before the next step reads it
    }
    if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
    (void)N;
    const int length = E - S + 1;
    int blocks = (length + kThreads - 1) / kThreads;
    if (blocks > 1056) blocks = 1056;  // 8 blocks per SM on a 132-SM H100; the loop covers the rest
    cudaMemset(output, 0, sizeof(int));
    range_sum<<<blocks, kThreads>>>(input, output, S, E);
}
