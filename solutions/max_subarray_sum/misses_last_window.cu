// expect: wrong_answer
// Mistake: counts N - window_size windows instead of N - window_size + 1, so the window that ends on the
// last element is never considered (and with window_size == N there is no window at all).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/cub.cuh>

namespace {

struct WindowSum {
    const int* prefix;
    int window_size;
    __host__ __device__ int operator()(int i) const { return prefix[i + window_size] - prefix[i]; }
};

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    static int* d_prefix = nullptr;
    static int prefix_capacity = 0;
    static void* d_temp = nullptr;
    static size_t temp_capacity = 0;
    if (N + 1 > prefix_capacity) {
        cudaFree(d_prefix);
        cudaMalloc(&d_prefix, (N + 1) * sizeof(int));
        prefix_capacity = N + 1;
    }

    const int num_windows = N - window_size;  // off by one: should be N - window_size + 1
    auto window_sums =
        thrust::make_transform_iterator(thrust::counting_iterator<int>(0), WindowSum{d_prefix, window_size});
    size_t scan_bytes = 0, max_bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, input, d_prefix + 1, N);
    cub::DeviceReduce::Max(nullptr, max_bytes, window_sums, output, num_windows);
    const size_t temp_bytes = scan_bytes > max_bytes ? scan_bytes : max_bytes;
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp);
        cudaMalloc(&d_temp, temp_bytes);
        temp_capacity = temp_bytes;
    }

    cudaMemsetAsync(d_prefix, 0, sizeof(int));
    cub::DeviceScan::InclusiveSum(d_temp, scan_bytes, input, d_prefix + 1, N);
    cub::DeviceReduce::Max(d_temp, max_bytes, window_sums, output, num_windows);
}
