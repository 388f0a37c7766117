// Plain triple loop over the inclusive box; long long so the sum cannot overflow before the final store.
extern "C" void reference(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                          int E_ROW, int S_COL, int E_COL) {
    (void)N;
    long long sum = 0;
    for (int d = S_DEP; d <= E_DEP; ++d)
        for (int r = S_ROW; r <= E_ROW; ++r)
            for (int c = S_COL; c <= E_COL; ++c) sum += input[(static_cast<long long>(d) * M + r) * K + c];
    output[0] = static_cast<int>(sum);
}
