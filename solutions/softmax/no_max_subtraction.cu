// expect: wrong_answer
// cause: nan
// Mistake: computes exp(x) / sum(exp(x)) straight from the definition, without subtracting the maximum.
// Mathematically equal, but exp(100) overflows float to inf (inf / inf = NaN) and exp(-100) lands among
// the denormals, where only a few significant bits are left. Sums with warp shuffles and one atomicAdd
// per warp, which is fine; the overflow is the bug.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void sum_of_exp(const float* input, int N, float* d_sum) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += expf(input[i]);  // overflows for x > 88.7
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(d_sum, sum);
}

__global__ void normalise(const float* input, float* output, int N, const float* d_sum) {
    const float sum = *d_sum;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        output[i] = expf(input[i]) / sum;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static float* d_sum = nullptr;  // scratch, zeroed on every call
    if (d_sum == nullptr) cudaMalloc(&d_sum, sizeof(float));
    cudaMemset(d_sum, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    sum_of_exp<<<blocks, kThreads>>>(input, N, d_sum);
    normalise<<<blocks, kThreads>>>(input, output, N, d_sum);
}
