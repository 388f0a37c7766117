// Average in double so the reference is exact enough to judge any float32 summation order.
extern "C" void reference(const float* y_samples, float* result, float a, float b, int n_samples) {
    double sum = 0.0;
    for (int i = 0; i < n_samples; ++i) sum += y_samples[i];
    result[0] = static_cast<float>((static_cast<double>(b) - a) * (sum / n_samples));
}
