// expect: wrong_answer
// Mistake: accumulates into output with atomicAdd without setting it to zero first. The output buffer is
// not zero on entry (here it holds garbage), so the count lands on top of whatever was there.
#include <cuda_runtime.h>

__global__ void count_atomic(const int* input, int* output, int N, int K) {
    int count = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        count += input[i] == K;
    for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, count);
}

extern "C" void solve(const int* input, int* output, int N, int K) {
    int blocks = (N + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    count_atomic<<<blocks, 256>>>(input, output, N, K);  // missing: cudaMemset(output, 0, sizeof(int))
}
