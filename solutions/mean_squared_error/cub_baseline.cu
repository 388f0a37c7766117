// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::TransformReduce over the indices 0..N-1, squaring each difference on the
// fly, with a transform output iterator that divides the total by N as CUB writes it.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cuda/std/functional>

namespace {

struct SquaredDifference {
    const float* predictions;
    const float* targets;
    __host__ __device__ float operator()(int i) const {
        const float difference = predictions[i] - targets[i];
        return difference * difference;
    }
};

struct DivideBy {
    float count;
    __host__ __device__ float operator()(float sum) const { return sum / count; }
};

}  // namespace

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
    // Temporary storage is kept between calls and grown as needed (scratch space, never an answer).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;

    auto indices = thrust::make_counting_iterator(0);
    auto mean_out = thrust::make_transform_output_iterator(mse, DivideBy{static_cast<float>(N)});
    const SquaredDifference square{predictions, targets};

    size_t temp_bytes = 0;
    cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, indices, mean_out, N, cuda::std::plus<float>{},
                                       square, 0.0f);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::TransformReduce(d_temp_storage, temp_bytes, indices, mean_out, N,
                                       cuda::std::plus<float>{}, square, 0.0f);
}
