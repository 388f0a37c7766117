// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::TransformReduce squares and sums in one library call; a small kernel then
// applies gamma * x / rms + beta.
#include <cub/cub.cuh>

namespace {

struct square {
    __host__ __device__ float operator()(float x) const { return x * x; }
};

__global__ void normalize(const float* input, const float* d_sum_of_squares, float gamma, float beta,
                          float* output, int N, float eps) {
    const float scale = gamma * rsqrtf(*d_sum_of_squares / N + eps);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        output[i] = input[i] * scale + beta;
}

}  // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
    // Scratch kept between calls: the sum's slot (rewritten by every call) and CUB's temporary storage.
    static float* d_sum_of_squares = nullptr;
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    if (!d_sum_of_squares) cudaMalloc(&d_sum_of_squares, sizeof(float));
    size_t temp_bytes = 0;
    cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, input, d_sum_of_squares, N, cuda::std::plus<>{},
                                       square{}, 0.0f);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::TransformReduce(d_temp_storage, temp_bytes, input, d_sum_of_squares, N,
                                       cuda::std::plus<>{}, square{}, 0.0f);
    const int threads = 256;
    int blocks = (N + threads - 1) / threads;
    if (blocks > 1024) blocks = 1024;
    normalize<<<blocks, threads>>>(input, d_sum_of_squares, gamma, beta, output, N, eps);
}
