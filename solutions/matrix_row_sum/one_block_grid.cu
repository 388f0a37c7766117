// expect: wrong_answer
// cause: one_block
// Mistake: the kernel gives one row to each thread of a grid (row = blockIdx.x * blockDim.x + threadIdx.x),
// but solve launches a single block, <<<1, kThreads>>>: the grid size is never computed. Rows past the first
// 128 are never summed and keep the zeros solve wrote first. Right for up to 128 rows.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;

__global__ void row_sum_kernel(const float* matrix, float* row_sums, int rows, int cols) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c) sum += matrix[static_cast<long long>(row) * cols + c];
    row_sums[row] = sum;
}

}  // namespace

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    cudaMemset(row_sums, 0, static_cast<size_t>(rows) * sizeof(float));
    row_sum_kernel<<<1, kThreads>>>(matrix, row_sums, rows, cols);  // should be (rows + kThreads - 1) / kThreads
}
