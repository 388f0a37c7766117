// expect: wrong_answer
// cause: nan
// Mistake: leaves eps out of the square root. Harmless on typical data, but an all-zero input divides
// 0 by 0 (NaN instead of beta), and tiny inputs are blown up to unit scale instead of being damped.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void sum_of_squares(const float* input, float* d_sum, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i] * input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(d_sum, sum);
}

__global__ void normalize(const float* input, const float* d_sum, float gamma, float beta, float* output,
                          int N) {
    const float scale = gamma * rsqrtf(*d_sum / N);  // should be rsqrtf(*d_sum / N + eps)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        output[i] = input[i] * scale + beta;
}

}  // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
    static float* d_sum = nullptr;
    if (!d_sum) cudaMalloc(&d_sum, sizeof(float));
    cudaMemset(d_sum, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 256) blocks = 256;
    sum_of_squares<<<blocks, kThreads>>>(input, d_sum, N);
    normalize<<<blocks, kThreads>>>(input, d_sum, gamma, beta, output, N);
}
