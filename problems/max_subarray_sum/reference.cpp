// Sliding window: the first window summed in full, then one element enters and one leaves per step.
extern "C" void reference(const int* input, int* output, int N, int window_size) {
    long long window = 0;
    for (int i = 0; i < window_size; ++i) window += input[i];
    long long best = window;
    for (int i = window_size; i < N; ++i) {
        window += input[i] - input[i - window_size];
        if (window > best) best = window;
    }
    output[0] = static_cast<int>(best);
}
