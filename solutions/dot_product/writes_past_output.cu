// expect: memory_violation
// Mistake: keeps the last-block ticket counter in result[1], treating the one-float output as free scratch
// space; the dot product itself is right, but the kernel writes one element past the end of the output.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 264;

__device__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void init_kernel(float* result) {
    result[0] = 0.0f;
    reinterpret_cast<unsigned int*>(result)[1] = 0u;  // the "counter" lives past the end of the output
}

__global__ void dot_kernel(const float* A, const float* B, float* result, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum);

    // Count finished blocks in result[1], so that the last block could do some final step.
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(reinterpret_cast<unsigned int*>(result) + 1, 1u);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    init_kernel<<<1, 1>>>(result);
    dot_kernel<<<blocks, kThreads>>>(A, B, result, N);
}
