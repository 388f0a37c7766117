// expect: wrong_answer
// cause: never_written
// Mistake: computes the dot product into its own device buffer, then assigns that pointer to the parameter
// `result` (`result = d_sum;`), which only changes solve's local copy; the caller's buffer is never written.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void dot_kernel(const float* A, const float* B, float* sum_out, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(sum_out, sum);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    static float* d_sum = nullptr;
    if (d_sum == nullptr) cudaMalloc(&d_sum, sizeof(float));
    cudaMemset(d_sum, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, kThreads>>>(A, B, d_sum, N);
    result = d_sum;  // rebinds the local pointer; result[0] still holds whatever was there before
}
