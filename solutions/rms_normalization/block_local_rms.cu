// expect: wrong_answer
// Mistake: one kernel where each block normalises its 256 elements by the RMS of those 256 alone. The
// RMS must cover the whole vector, so any N above 256 gets a different scale in every block.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void rms_norm_per_block(const float* input, float gamma, float beta, float* output, int N,
                                   float eps) {
    __shared__ float cache[kThreads];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float x = i < N ? input[i] : 0.0f;
    cache[threadIdx.x] = x * x;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
    }
    // Divides the block's sum by N, as if the block had seen the whole vector.
    if (i < N) output[i] = gamma * x * rsqrtf(cache[0] / N + eps) + beta;
}

}  // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
    rms_norm_per_block<<<(N + kThreads - 1) / kThreads, kThreads>>>(input, gamma, beta, output, N, eps);
}
