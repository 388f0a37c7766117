// expect: accepted
// role: baseline
// Technique: library building blocks: cub::DeviceSegmentedReduce::Max gives each row's max,
// cub::DeviceSegmentedReduce::Sum over a transform iterator gives each row's sum of exp(z - max), and
// cub::DeviceReduce::TransformReduce turns the rows into (max + log(sum) - z[label]) / N and adds them.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

namespace {

struct RowStart {
    int C;
    __host__ __device__ long long operator()(int row) const { return static_cast<long long>(row) * C; }
};

// Element k of the flattened logits, shifted by its row's max and exponentiated.
struct ExpShifted {
    const float* logits;
    const float* row_max;
    int C;
    __host__ __device__ float operator()(long long k) const { return expf(logits[k] - row_max[k / C]); }
};

struct RowLoss {
    const float* logits;
    const int* true_labels;
    const float* row_max;
    const float* row_sum;
    int N, C;
    __host__ __device__ float operator()(int row) const {
        const float z_label = logits[static_cast<long long>(row) * C + true_labels[row]];
        return (row_max[row] + logf(row_sum[row]) - z_label) / N;
    }
};

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    // Scratch kept between calls and grown as needed: CUB's temporary storage and two floats per row.
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    static float* d_rows = nullptr;
    static int rows_capacity = 0;
    if (N > rows_capacity) {
        cudaFree(d_rows);
        cudaMalloc(&d_rows, 2 * sizeof(float) * N);
        rows_capacity = N;
    }
    float* d_row_max = d_rows;
    float* d_row_sum = d_rows + N;

    auto row_begin = thrust::make_transform_iterator(thrust::make_counting_iterator(0), RowStart{C});
    auto row_end = row_begin + 1;
    auto shifted = thrust::make_transform_iterator(thrust::make_counting_iterator(0LL),
                                                   ExpShifted{logits, d_row_max, C});
    auto rows = thrust::make_counting_iterator(0);
    const RowLoss row_loss{logits, true_labels, d_row_max, d_row_sum, N, C};

    size_t max_bytes = 0, sum_bytes = 0, loss_bytes = 0;
    cub::DeviceSegmentedReduce::Max(nullptr, max_bytes, logits, d_row_max, N, row_begin, row_end);
    cub::DeviceSegmentedReduce::Sum(nullptr, sum_bytes, shifted, d_row_sum, N, row_begin, row_end);
    cub::DeviceReduce::TransformReduce(nullptr, loss_bytes, rows, loss, N, cuda::std::plus<float>{}, row_loss,
                                       0.0f);
    size_t temp_bytes = max_bytes;
    if (sum_bytes > temp_bytes) temp_bytes = sum_bytes;
    if (loss_bytes > temp_bytes) temp_bytes = loss_bytes;
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }

    cub::DeviceSegmentedReduce::Max(d_temp_storage, max_bytes, logits, d_row_max, N, row_begin, row_end);
    cub::DeviceSegmentedReduce::Sum(d_temp_storage, sum_bytes, shifted, d_row_sum, N, row_begin, row_end);
    cub::DeviceReduce::TransformReduce(d_temp_storage, loss_bytes, rows, loss, N, cuda::std::plus<float>{},
                                       row_loss, 0.0f);
}
