extern "C" void reference(const int* input, int* output, int N, int K) {
    long long count = 0;
    for (int i = 0; i < N; ++i) count += input[i] == K;
    output[0] = static_cast<int>(count);
}
