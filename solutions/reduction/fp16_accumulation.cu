// expect: wrong_answer
// cause: half_precision
// Mistake: accumulates in __half "to save registers": each input is rounded to 11 significant bits, every
// running sum is rounded again, and sums beyond 65504 overflow to infinity.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void reduce_half_kernel(const float* input, float* output, int N) {
    __half sum = __float2half(0.0f);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum = __hadd(sum, __float2half(input[i]));
    for (int offset = 16; offset > 0; offset /= 2)
        sum = __hadd(sum, __shfl_down_sync(0xffffffffu, sum, offset));
    if (threadIdx.x % 32 == 0) atomicAdd(output, __half2float(sum));
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    reduce_half_kernel<<<blocks, kThreads>>>(input, output, N);
}
