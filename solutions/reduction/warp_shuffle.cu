// expect: accepted
// step: 2
// Technique: grid-stride loop, warp shuffle (__shfl_down_sync) inside each warp, shared memory
// across the warps of a block, then one atomicAdd per block.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__device__ float warp_sum(float value) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void reduce_kernel(const float* input, float* output, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];

    __shared__ float warp_sums[kThreads / 32];
    const int lane = threadIdx.x % warpSize;
    const int warp = threadIdx.x / warpSize;
    sum = warp_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = lane < kThreads / 32 ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) atomicAdd(output, sum);
    }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    cudaMemset(output, 0, sizeof(float));
    reduce_kernel<<<blocks, kThreads>>>(input, output, N);
}
