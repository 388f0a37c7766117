// expect: wrong_answer
// cause: half_precision
// Mistake: accumulates in half precision (__half) to save registers: 11 mantissa bits round every
// sample of magnitude ~10,000 by up to 4, and partial sums beyond 65,504 overflow to infinity.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void sum_half(const float* y_samples, float* result, float scale, int n_samples) {
    __half sum = __float2half(0.0f);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n_samples; i += gridDim.x * blockDim.x)
        sum = __hadd(sum, __float2half(y_samples[i]));
    for (int offset = 16; offset > 0; offset /= 2)
        sum = __hadd(sum, __shfl_down_sync(0xffffffffu, sum, offset));
    if (threadIdx.x % 32 == 0) atomicAdd(result, scale * __half2float(sum));
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    int blocks = (n_samples + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    cudaMemset(result, 0, sizeof(float));
    sum_half<<<blocks, kThreads>>>(y_samples, result, (b - a) / static_cast<float>(n_samples), n_samples);
}
