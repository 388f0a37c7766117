// expect: accepted
// role: baseline
// Technique: library building blocks. Each column is one segment of cub::DeviceSegmentedReduce::Sum, read
// through a transform iterator that walks the row-major matrix column by column: once for the column
// sums, once for the squared deviations from the mean. thrust::transform then writes the normalised
// matrix.
#include <cub/cub.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <cmath>

namespace {

struct ColumnStart {
    int N;
    __host__ __device__ long long operator()(int c) const { return static_cast<long long>(c) * N; }
};

// Element k of the column-major view: column k / N, row k % N.
struct ColumnMajorValue {
    const float* input;
    int N, C;
    __host__ __device__ float operator()(long long k) const {
        return input[(k % N) * C + k / N];
    }
};

struct SquaredDeviation {
    const float* input;
    const float* column_sum;
    int N, C;
    __host__ __device__ float operator()(long long k) const {
        const float deviation = input[(k % N) * C + k / N] - column_sum[k / N] / N;
        return deviation * deviation;
    }
};

struct Normalise {
    const float* input;
    const float* gamma;
    const float* beta;
    const float* column_sum;
    const float* column_squares;
    int N, C;
    float eps;
    __host__ __device__ float operator()(long long i) const {
        const int c = static_cast<int>(i % C);
        const float mean = column_sum[c] / N;
        const float variance = column_squares[c] / N;
        return (input[i] - mean) * (gamma[c] / sqrtf(variance + eps)) + beta[c];
    }
};

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    // Scratch kept between calls and grown as needed: CUB's temporary storage and two floats per column.
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    static float* d_columns = nullptr;
    static int columns_capacity = 0;
    if (C > columns_capacity) {
        cudaFree(d_columns);
        cudaMalloc(&d_columns, 2 * sizeof(float) * C);
        columns_capacity = C;
    }
    float* d_column_sum = d_columns;
    float* d_column_squares = d_columns + C;

    auto column_begin = thrust::make_transform_iterator(thrust::make_counting_iterator(0), ColumnStart{N});
    auto column_end = column_begin + 1;
    auto values =
        thrust::make_transform_iterator(thrust::make_counting_iterator(0LL), ColumnMajorValue{input, N, C});
    auto deviations = thrust::make_transform_iterator(thrust::make_counting_iterator(0LL),
                                                      SquaredDeviation{input, d_column_sum, N, C});

    size_t sum_bytes = 0, squares_bytes = 0;
    cub::DeviceSegmentedReduce::Sum(nullptr, sum_bytes, values, d_column_sum, C, column_begin, column_end);
    cub::DeviceSegmentedReduce::Sum(nullptr, squares_bytes, deviations, d_column_squares, C, column_begin,
                                    column_end);
    const size_t temp_bytes = sum_bytes > squares_bytes ? sum_bytes : squares_bytes;
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }

    cub::DeviceSegmentedReduce::Sum(d_temp_storage, sum_bytes, values, d_column_sum, C, column_begin,
                                    column_end);
    cub::DeviceSegmentedReduce::Sum(d_temp_storage, squares_bytes, deviations, d_column_squares, C,
                                    column_begin, column_end);
    const long long count = static_cast<long long>(N) * C;
    thrust::transform(thrust::device, thrust::make_counting_iterator(0LL),
                      thrust::make_counting_iterator(count), output,
                      Normalise{input, gamma, beta, d_column_sum, d_column_squares, N, C, eps});
}
