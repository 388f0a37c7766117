// expect: accepted
// role: baseline
// Technique: library building blocks: cub::DeviceReduce::Max, cub::DeviceReduce::TransformReduce for the
// sum of exp(x - max), then thrust::transform to write the normalised values. Three passes over the input.
#include <cub/cub.cuh>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include <cuda/std/functional>

namespace {

// exp(x - max), with the max read on the device so the host never waits for it.
struct ExpMinusMax {
    const float* d_max;
    __device__ float operator()(float x) const { return expf(x - *d_max); }
};

struct Normalise {
    const float* d_max;
    const float* d_sum;
    __device__ float operator()(float x) const { return expf(x - *d_max) / *d_sum; }
};

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    // Scratch kept between calls: CUB's temporary storage plus two floats for the max and the sum.
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    static float* d_max_and_sum = nullptr;
    if (d_max_and_sum == nullptr) cudaMalloc(&d_max_and_sum, 2 * sizeof(float));
    float* d_max = d_max_and_sum;
    float* d_sum = d_max_and_sum + 1;

    size_t max_bytes = 0, sum_bytes = 0;
    cub::DeviceReduce::Max(nullptr, max_bytes, input, d_max, N);
    cub::DeviceReduce::TransformReduce(nullptr, sum_bytes, input, d_sum, N, cuda::std::plus<float>{},
                                       ExpMinusMax{d_max}, 0.0f);
    const size_t temp_bytes = max_bytes > sum_bytes ? max_bytes : sum_bytes;
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }

    cub::DeviceReduce::Max(d_temp_storage, max_bytes, input, d_max, N);
    cub::DeviceReduce::TransformReduce(d_temp_storage, sum_bytes, input, d_sum, N, cuda::std::plus<float>{},
                                       ExpMinusMax{d_max}, 0.0f);
    thrust::transform(thrust::device, input, input + N, output, Normalise{d_max, d_sum});
}
