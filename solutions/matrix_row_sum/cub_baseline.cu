// expect: accepted
// role: baseline
// Technique: cub::DeviceSegmentedReduce::Sum with one segment per row; the segment offsets come from a
// Thrust transform iterator (row * cols), so no offset array is built.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/cub.cuh>

namespace {

struct RowStart {
    int cols;
    __host__ __device__ int operator()(int row) const { return row * cols; }  // rows * cols <= 1e8 fits
};

}  // namespace

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    auto row_starts = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), RowStart{cols});
    auto row_ends = row_starts + 1;  // row r ends where row r + 1 starts

    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, matrix, row_sums, rows, row_starts, row_ends);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceSegmentedReduce::Sum(d_temp_storage, temp_bytes, matrix, row_sums, rows, row_starts, row_ends);
}
