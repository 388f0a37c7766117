// expect: wrong_answer
// cause: never_written
// Mistake: sums into a scratch float and then calls cudaMemcpy(d_sum, output, ...) with destination and
// source swapped, so the poisoned output is copied over the sum and output[0] is never written.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void reduce_kernel(const float* input, float* sum_out, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(sum_out, sum);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static float* d_sum = nullptr;
    if (d_sum == nullptr) cudaMalloc(&d_sum, sizeof(float));
    cudaMemset(d_sum, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    reduce_kernel<<<blocks, kThreads>>>(input, d_sum, N);
    cudaMemcpy(d_sum, output, sizeof(float), cudaMemcpyDeviceToDevice);  // should be (output, d_sum, ...)
}
