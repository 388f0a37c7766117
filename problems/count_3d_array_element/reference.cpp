// Count in long long over the flattened array: the 3D layout does not change which elements match.
extern "C" void reference(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    long long count = 0;
    for (long long i = 0; i < total; ++i) count += (input[i] == P);
    output[0] = static_cast<int>(count);
}
