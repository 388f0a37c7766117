// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::Sum over the sub-range input + S, E - S + 1 elements long.
#include <cub/cub.cuh>

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
    (void)N;
    const int length = E - S + 1;
    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, input + S, output, length);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::Sum(d_temp_storage, temp_bytes, input + S, output, length);
}
