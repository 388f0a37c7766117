// expect: accepted
// step: 1
// Technique: one warp per row. Lanes stride along the row (neighbouring lanes read neighbouring floats, so
// every load is coalesced), __shfl_down_sync folds the 32 partial sums, and lane 0 writes the row's sum.
// No atomics, so nothing needs zeroing.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void row_sum_kernel(const float* matrix, float* row_sums, int rows, int cols) {
    const int lane = threadIdx.x % 32;
    const int first_row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    // Grid-stride over rows; the whole warp takes the same branch, so the shuffles see all 32 lanes.
    for (int row = first_row; row < rows; row += gridDim.x * kWarpsPerBlock) {
        const float* row_ptr = matrix + static_cast<long long>(row) * cols;
        float sum = 0.0f;
        for (int c = lane; c < cols; c += 32) sum += row_ptr[c];
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) row_sums[row] = sum;
    }
}

}  // namespace

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    long long blocks = (static_cast<long long>(rows) + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > 65536) blocks = 65536;
    row_sum_kernel<<<static_cast<int>(blocks), kThreads>>>(matrix, row_sums, rows, cols);
}
