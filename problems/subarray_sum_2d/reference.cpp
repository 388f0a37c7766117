// Sum the inclusive window row by row in long long; element (r, c) is input[r * M + c].
extern "C" void reference(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL,
                          int E_COL) {
    (void)N;
    long long sum = 0;
    for (int r = S_ROW; r <= E_ROW; ++r)
        for (int c = S_COL; c <= E_COL; ++c) sum += input[static_cast<long long>(r) * M + c];
    output[0] = static_cast<int>(sum);
}
