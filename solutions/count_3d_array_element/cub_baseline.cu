// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::TransformReduce maps each element to 1 or 0 and sums the flags in
// one library call.
#include <cub/cub.cuh>

namespace {

struct EqualsValue {
    int value;
    __host__ __device__ int operator()(int x) const { return x == value ? 1 : 0; }
};

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, input, output, total, cuda::std::plus<int>{},
                                       EqualsValue{P}, 0);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::TransformReduce(d_temp_storage, temp_bytes, input, output, total,
                                       cuda::std::plus<int>{}, EqualsValue{P}, 0);
}
