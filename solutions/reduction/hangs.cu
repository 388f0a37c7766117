// expect: time_limit_exceeded
// Mistake: the kernel waits on a volatile "go" flag that the host raises with cudaMemset after the launch;
// both are in the same stream, so the memset can only run once the kernel has finished, which it never does.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void reduce_kernel(const float* input, float* output, const int* go_flag, int N) {
    // A volatile read is a side effect the compiler must repeat, so this loop really spins.
    const volatile int* go = go_flag;
    while (*go == 0) {
    }

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static int* d_go_flag = nullptr;
    if (d_go_flag == nullptr) cudaMalloc(&d_go_flag, sizeof(int));
    cudaMemset(d_go_flag, 0, sizeof(int));
    cudaMemset(output, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    reduce_kernel<<<blocks, kThreads>>>(input, output, d_go_flag, N);
    cudaMemset(d_go_flag, 1, sizeof(int));  // queued behind the kernel: too late to release it
}
