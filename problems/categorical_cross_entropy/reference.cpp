// Mean over the rows of -log softmax(row)[label], in double, through the log-sum-exp identity
// log sum_j exp(z_j) = m + log sum_j exp(z_j - m) with m = max_j z_j, so no exponential overflows.
#include <cmath>

extern "C" void reference(const float* logits, const int* true_labels, float* loss, int N, int C) {
    double total = 0.0;
    for (int i = 0; i < N; ++i) {
        const float* row = logits + static_cast<long long>(i) * C;
        double max_logit = row[0];
        for (int j = 1; j < C; ++j) max_logit = std::fmax(max_logit, static_cast<double>(row[j]));
        double sum = 0.0;
        for (int j = 0; j < C; ++j) sum += std::exp(row[j] - max_logit);
        total += max_logit + std::log(sum) - row[true_labels[i]];
    }
    loss[0] = static_cast<float>(total / N);
}
