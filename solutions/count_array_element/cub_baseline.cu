// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::TransformReduce maps each element to 1 or 0 (equal to K or not) and sums,
// writing the count straight into output.
#include <cub/cub.cuh>

namespace {

struct equals_k {
    int K;
    __host__ __device__ int operator()(int x) const { return x == K ? 1 : 0; }
};

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int K) {
    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, input, output, N, cuda::std::plus<>{},
                                       equals_k{K}, 0);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::TransformReduce(d_temp_storage, temp_bytes, input, output, N, cuda::std::plus<>{},
                                       equals_k{K}, 0);
}
