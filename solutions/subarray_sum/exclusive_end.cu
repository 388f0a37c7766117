// expect: wrong_answer
// cause: off_by_one
// Mistake: treats E as one past the end (i < E), the usual C convention, although the range is
// inclusive: input[E] is never added.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void range_sum(const int* input, int* output, int S, int E) {
    __shared__ int partial[kThreads];
    int sum = 0;
    for (int i = S + blockIdx.x * blockDim.x + threadIdx.x; i < E; i += gridDim.x * blockDim.x)
        sum += input[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int active = blockDim.x / 2; active > 0; active /= 2) {
        if (threadIdx.x < active) partial[threadIdx.x] += partial[threadIdx.x + active];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
    (void)N;
    const int length = E - S;  // one short
    int blocks = (length + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > 1056) blocks = 1056;
    cudaMemset(output, 0, sizeof(int));
    range_sum<<<blocks, kThreads>>>(input, output, S, E);
}
