// Products of two floats are exact in double, so only the (double) summation rounds.
extern "C" void reference(const float* A, const float* B, float* result, int N) {
    double sum = 0.0;
    for (int i = 0; i < N; ++i) sum += static_cast<double>(A[i]) * static_cast<double>(B[i]);
    result[0] = static_cast<float>(sum);
}
