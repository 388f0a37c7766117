// The matrix is stored row-major: element (row, col) is input[row * M + col].
extern "C" void reference(const int* input, int* output, int N, int M, int K) {
    long long count = 0;
    for (long long row = 0; row < N; ++row)
        for (long long col = 0; col < M; ++col) count += input[row * M + col] == K;
    output[0] = static_cast<int>(count);
}
