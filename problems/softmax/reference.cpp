// Softmax over the whole vector, in double: subtract the maximum so no exponential overflows.
#include <cmath>

extern "C" void reference(const float* input, float* output, int N) {
    double max_value = input[0];
    for (int i = 1; i < N; ++i) max_value = std::fmax(max_value, static_cast<double>(input[i]));
    double sum = 0.0;
    for (int i = 0; i < N; ++i) sum += std::exp(input[i] - max_value);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(input[i] - max_value) / sum);
}
