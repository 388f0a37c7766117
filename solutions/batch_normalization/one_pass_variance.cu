// expect: wrong_answer
// Mistake: one pass with the textbook identity variance = E[x^2] - mean^2, in float. When a column's mean
// is large against its spread (values in [49, 51]: mean^2 = 2500, variance = 1/3), both terms carry
// rounding errors of about 2500 * 6e-8 = 1.5e-4, and the small difference keeps little else. Two passes
// (mean first, then the squared deviations) or sums shifted by a value of the column avoid it.
// Otherwise sound: one thread per column, so a warp reads 32 neighbouring floats of each row.
#include <cuda_runtime.h>

#include <cmath>

namespace {

__global__ void batch_norm(const float* input, const float* gamma, const float* beta, float* output, int N,
                           int C, float eps) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float sum = 0.0f, sum_of_squares = 0.0f;
    for (int r = 0; r < N; ++r) {
        const float x = input[static_cast<long long>(r) * C + c];
        sum += x;
        sum_of_squares += x * x;
    }
    const float mean = sum / N;
    const float variance = fmaxf(sum_of_squares / N - mean * mean, 0.0f);  // cancels when |mean| >> spread
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
