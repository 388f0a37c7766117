// Sum the inclusive range [S, E] in long long; the values fit an int, but this leaves no doubt.
extern "C" void reference(const int* input, int* output, int N, int S, int E) {
    (void)N;
    long long sum = 0;
    for (int i = S; i <= E; ++i) sum += input[i];
    output[0] = static_cast<int>(sum);
}
