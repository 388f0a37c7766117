// expect: accepted
// role: baseline
// Technique: cub::DeviceScan::InclusiveSum builds the prefix sums, then cub::DeviceReduce::Max runs over a
// transform iterator yielding each window sum P[i + w] - P[i].
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/cub.cuh>

namespace {

struct WindowSum {
    const int* prefix;
    int window_size;
    __host__ __device__ int operator()(int i) const { return prefix[i + window_size] - prefix[i]; }
};

// Scratch kept between calls (it holds no answer): temp storage for CUB and the N + 1 prefix sums.
void* grow(void*& buffer, size_t& capacity, size_t bytes) {
    if (bytes > capacity) {
        cudaFree(buffer);
        cudaMalloc(&buffer, bytes);
        capacity = bytes;
    }
    return buffer;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    static void* d_prefix = nullptr;
    static size_t prefix_capacity = 0;
    static void* d_temp = nullptr;
    static size_t temp_capacity = 0;

    int* prefix = static_cast<int*>(grow(d_prefix, prefix_capacity, (N + 1) * sizeof(int)));
    const int num_windows = N - window_size + 1;
    auto window_sums =
        thrust::make_transform_iterator(thrust::counting_iterator<int>(0), WindowSum{prefix, window_size});

    size_t scan_bytes = 0, max_bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, input, prefix + 1, N);
    cub::DeviceReduce::Max(nullptr, max_bytes, window_sums, output, num_windows);
    void* temp = grow(d_temp, temp_capacity, scan_bytes > max_bytes ? scan_bytes : max_bytes);

    cudaMemsetAsync(prefix, 0, sizeof(int));  // P[0] = 0
    cub::DeviceScan::InclusiveSum(temp, scan_bytes, input, prefix + 1, N);
    cub::DeviceReduce::Max(temp, max_bytes, window_sums, output, num_windows);
}
