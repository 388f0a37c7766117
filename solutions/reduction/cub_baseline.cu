// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::Sum, the library answer every other solution is compared with.
#include <cub/cub.cuh>

extern "C" void solve(const float* input, float* output, int N) {
    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, input, output, N);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::Sum(d_temp_storage, temp_bytes, input, output, N);
}
