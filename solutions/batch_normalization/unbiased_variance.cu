// expect: wrong_answer
// Mistake: divides the sum of squared deviations by N - 1 (the unbiased sample variance, torch.var's
// default) instead of N. Batch normalisation uses the biased variance: the results shrink by
// sqrt((N - 1) / N), visibly for small batches, and N = 1 gives 0 / 0 = NaN.
// Otherwise sound: one thread per column, so a warp reads 32 neighbouring floats of each row.
#include <cuda_runtime.h>

#include <cmath>

namespace {

__global__ void batch_norm(const float* input, const float* gamma, const float* beta, float* output, int N,
                           int C, float eps) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float sum = 0.0f;
    for (int r = 0; r < N; ++r) sum += input[static_cast<long long>(r) * C + c];
    const float mean = sum / N;
    float squares = 0.0f;
    for (int r = 0; r < N; ++r) {
        const float deviation = input[static_cast<long long>(r) * C + c] - mean;
        squares += deviation * deviation;
    }
    const float variance = squares / (N - 1);  // should be / N
    const float scale = gamma[c] / sqrtf(variance + eps);
    for (int r = 0; r < N; ++r) {
        const long long i = static_cast<long long>(r) * C + c;
        output[i] = (input[i] - mean) * scale + beta[c];
    }
}

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    batch_norm<<<(C + 127) / 128, 128>>>(input, gamma, beta, output, N, C, eps);
}
