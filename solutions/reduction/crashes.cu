// expect: runtime_error
// Mistake: allocates the per-block partials with cudaMalloc(&g_partials, ...) on a __device__ pointer
// variable; on the host that name is only a shadow copy, so the device's g_partials stays null and the
// kernel writes through a null pointer: an illegal memory access (cudaMemcpyToSymbol would have set it).
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 264;

__device__ float* g_partials;  // zero-initialised on the device, and never set there

__global__ void partial_sum_kernel(const float* input, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ float warp_sums[kThreads / 32];
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float block_total = 0.0f;
        for (int w = 0; w < kThreads / 32; ++w) block_total += warp_sums[w];
        g_partials[blockIdx.x] = block_total;  // null on the device: the GPU faults here
    }
}

__global__ void final_sum_kernel(float* output, int num_partials) {
    float total = 0.0f;
    for (int b = 0; b < num_partials; ++b) total += g_partials[b];
    output[0] = total;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static bool allocated = false;
    if (!allocated) {
        cudaMalloc(&g_partials, kBlocks * sizeof(float));  // sets the host shadow, not the device variable
        allocated = true;
    }
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    partial_sum_kernel<<<blocks, kThreads>>>(input, N);
    final_sum_kernel<<<1, 1>>>(output, blocks);
}
