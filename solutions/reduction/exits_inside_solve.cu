// expect: runtime_error
// Mistake: left over from a standalone test program: after computing the sum, solve copies it to the host,
// prints it and calls exit(0), ending the whole process instead of returning to the caller.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void reduce_kernel(const float* input, float* output, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    reduce_kernel<<<blocks, kThreads>>>(input, output, N);

    float h_sum = 0.0f;
    cudaMemcpy(&h_sum, output, sizeof(float), cudaMemcpyDeviceToHost);
    printf("sum = %f\n", h_sum);
    exit(0);
}
