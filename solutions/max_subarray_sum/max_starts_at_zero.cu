// expect: wrong_answer
// Mistake: zeroes the output before atomicMax, as one would for a sum. Zero is not the identity of max: when
// every window sum is negative the answer stays 0.
#include <cuda_runtime.h>

__global__ void window_sum_kernel(const int* input, int* output, int N, int window_size) {
    const int start = blockIdx.x * blockDim.x + threadIdx.x;
    if (start > N - window_size) return;
    int sum = 0;
    for (int i = start; i < start + window_size; ++i) sum += input[i];
    atomicMax(output, sum);
}

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    cudaMemset(output, 0, sizeof(int));  // should start from INT_MIN
    const int num_windows = N - window_size + 1;
    window_sum_kernel<<<(num_windows + 255) / 256, 256>>>(input, output, N, window_size);
}
