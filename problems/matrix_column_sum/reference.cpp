#include <vector>

// Walks the matrix row by row (cache friendly) into one double accumulator per column.
extern "C" void reference(const float* matrix, float* col_sums, int rows, int cols) {
    std::vector<double> sums(cols, 0.0);
    for (long long r = 0; r < rows; ++r) {
        const float* row = matrix + r * cols;
        for (int c = 0; c < cols; ++c) sums[c] += row[c];
    }
    for (int c = 0; c < cols; ++c) col_sums[c] = static_cast<float>(sums[c]);
}
