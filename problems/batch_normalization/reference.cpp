// Batch normalisation over the rows of each column, in double: biased (population) variance, two passes.
#include <cmath>

extern "C" void reference(const float* input, const float* gamma, const float* beta, float* output, int N,
                          int C, float eps) {
    for (int c = 0; c < C; ++c) {
        double sum = 0.0;
        for (int r = 0; r < N; ++r) sum += input[static_cast<long long>(r) * C + c];
        const double mean = sum / N;
        double squares = 0.0;
        for (int r = 0; r < N; ++r) {
            const double deviation = input[static_cast<long long>(r) * C + c] - mean;
            squares += deviation * deviation;
        }
        const double inverse_std = 1.0 / std::sqrt(squares / N + static_cast<double>(eps));
        for (int r = 0; r < N; ++r) {
            const long long i = static_cast<long long>(r) * C + c;
            output[i] = static_cast<float>(gamma[c] * (input[i] - mean) * inverse_std + beta[c]);
        }
    }
}
