// expect: wrong_answer
// cause: nan
// Mistake: blocks atomicAdd their partial column sums straight into col_sums without zeroing it first. The
// output buffer holds whatever was there before (the judge fills it with NaN), so every sum is garbage.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kMaxRowChunks = 4096;

__global__ void column_sum_kernel(const float* matrix, float* col_sums, int rows, int cols,
                                  int rows_per_chunk) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    const int first_row = blockIdx.y * rows_per_chunk;
    const int last_row = min(rows, first_row + rows_per_chunk);
    float sum = 0.0f;
    for (int row = first_row; row < last_row; ++row) sum += matrix[static_cast<long long>(row) * cols + col];
    atomicAdd(col_sums + col, sum);  // adds onto an uninitialised value
}

extern "C" void solve(const float* matrix, float* col_sums, int rows, int cols) {
    // Missing: cudaMemset(col_sums, 0, cols * sizeof(float));
    int row_chunks = (rows + 255) / 256;
    if (row_chunks > kMaxRowChunks) row_chunks = kMaxRowChunks;
    const int rows_per_chunk = (rows + row_chunks - 1) / row_chunks;
    const dim3 blocks((cols + kThreads - 1) / kThreads, row_chunks);
    column_sum_kernel<<<blocks, kThreads>>>(matrix, col_sums, rows, cols, rows_per_chunk);
}
