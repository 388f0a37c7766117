// expect: accepted
// role: baseline
// Technique: cub::DeviceSegmentedReduce::Sum with one segment per window row (offsets generated on
// the fly by transform iterators), then cub::DeviceReduce::Sum over the row sums.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

// Offset of the window's first (or one-past-last) column in window row r.
struct RowOffset {
    int M, S_ROW, column;
    __host__ __device__ int operator()(int r) const { return (S_ROW + r) * M + column; }
};

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL,
                      int E_COL) {
    (void)N;
    const int rows = E_ROW - S_ROW + 1;
    const thrust::counting_iterator<int> row_index(0);
    const auto begins = thrust::make_transform_iterator(row_index, RowOffset{M, S_ROW, S_COL});
    const auto ends = thrust::make_transform_iterator(row_index, RowOffset{M, S_ROW, E_COL + 1});

    // Scratch kept between calls, grown as needed: CUB's temporary storage and the per-row sums
    // (both are overwritten by every call before they are read).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    static int* d_row_sums = nullptr;
    static int row_capacity = 0;
    if (rows > row_capacity) {
        cudaFree(d_row_sums);
        cudaMalloc(&d_row_sums, rows * sizeof(int));
        row_capacity = rows;
    }
    size_t segmented_bytes = 0, total_bytes = 0;
    cub::DeviceSegmentedReduce::Sum(nullptr, segmented_bytes, input, d_row_sums, rows, begins, ends);
    cub::DeviceReduce::Sum(nullptr, total_bytes, d_row_sums, output, rows);
    const size_t temp_bytes = segmented_bytes > total_bytes ? segmented_bytes : total_bytes;
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceSegmentedReduce::Sum(d_temp_storage, segmented_bytes, input, d_row_sums, rows, begins, ends);
    cub::DeviceReduce::Sum(d_temp_storage, total_bytes, d_row_sums, output, rows);
}
