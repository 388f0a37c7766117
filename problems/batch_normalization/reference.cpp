// Batch normalisation over the rows of each column, in double: biased (population) variance, two passes.
// Walks the matrix row by row (cache friendly) into one double accumulator per column.
#include <cmath>
#include <vector>

extern "C" void reference(const float* input, const float* gamma, const float* beta, float* output, int N,
                          int C, float eps) {
    std::vector<double> mean(C, 0.0), squares(C, 0.0), inverse_std(C);
    for (long long r = 0; r < N; ++r)
        for (int c = 0; c < C; ++c) mean[c] += input[r * C + c];
    for (int c = 0; c < C; ++c) mean[c] /= N;
    for (long long r = 0; r < N; ++r)
        for (int c = 0; c < C; ++c) {
            const double deviation = input[r * C + c] - mean[c];
            squares[c] += deviation * deviation;
        }
    for (int c = 0; c < C; ++c) inverse_std[c] = 1.0 / std::sqrt(squares[c] / N + static_cast<double>(eps));
    for (long long r = 0; r < N; ++r)
        for (int c = 0; c < C; ++c) {
            const long long i = r * C + c;
            output[i] = static_cast<float>(gamma[c] * (input[i] - mean[c]) * inverse_std[c] + beta[c]);
        }
}
