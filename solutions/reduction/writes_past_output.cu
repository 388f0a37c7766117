// expect: memory_violation
// Mistake: the kernel that clears the output tests `i <= num_outputs` instead of `i < num_outputs`, so it
// also writes output[1], one float past the end of the single-element output.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void zero_kernel(float* output, int num_outputs) {
    const int i = threadIdx.x;
    if (i <= num_outputs) output[i] = 0.0f;  // off by one: i = num_outputs is past the end
}

__global__ void reduce_kernel(const float* input, float* output, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    zero_kernel<<<1, 32>>>(output, 1);
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    reduce_kernel<<<blocks, kThreads>>>(input, output, N);
}
