// expect: wrong_answer
// Mistake: one block per row and one element per thread, with no loop along the row, so columns past
// blockDim.x (256) are never added. Right for narrow matrices, wrong as soon as cols > 256.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void row_sum_kernel(const float* matrix, float* row_sums, int cols) {
    __shared__ float partial[kThreads];
    const int row = blockIdx.x;
    const int c = threadIdx.x;
    partial[c] = c < cols ? matrix[static_cast<long long>(row) * cols + c] : 0.0f;  // needs a loop over c
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (c < stride) partial[c] += partial[c + stride];
        __syncthreads();
    }
    if (c == 0) row_sums[row] = partial[0];
}

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    row_sum_kernel<<<rows, kThreads>>>(matrix, row_sums, cols);
}
