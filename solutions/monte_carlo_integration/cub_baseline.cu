// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::Sum into a scratch float, then a one-thread kernel scales it by
// (b - a) / n into result.
#include <cub/cub.cuh>

namespace {

__global__ void scale_sum(const float* sum, float* result, float a, float b, int n_samples) {
    result[0] = (b - a) * (sum[0] / static_cast<float>(n_samples));
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    // Scratch kept between calls: CUB's temporary storage and the raw sum (never an answer: both
    // are overwritten by every call before they are read).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    static float* d_sum = nullptr;
    if (d_sum == nullptr) cudaMalloc(&d_sum, sizeof(float));
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, y_samples, d_sum, n_samples);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::Sum(d_temp_storage, temp_bytes, y_samples, d_sum, n_samples);
    scale_sum<<<1, 1>>>(d_sum, result, a, b, n_samples);
}
