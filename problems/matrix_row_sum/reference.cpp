// One double accumulator per row, so the reference is exact enough to judge any float32 summation order.
extern "C" void reference(const float* matrix, float* row_sums, int rows, int cols) {
    for (long long r = 0; r < rows; ++r) {
        const float* row = matrix + r * cols;
        double sum = 0.0;
        for (int c = 0; c < cols; ++c) sum += row[c];
        row_sums[r] = static_cast<float>(sum);
    }
}
