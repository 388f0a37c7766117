// expect: accepted
// step: 1
// Technique: every window sum is a difference of prefix sums, P[i + w] - P[i]. Kernel 1 (one block) builds P
// with a shared-memory Hillis-Steele scan, tile by tile with a running carry; kernel 2 takes the maximum with
// a shared-memory tree (sequential addressing) and one atomicMax per block.
#include <cuda_runtime.h>

#include <climits>

namespace {

constexpr int kThreads = 256;
constexpr int kScanThreads = 1024;

// prefix[0] = 0 and prefix[i + 1] = input[0] + ... + input[i]. Also seeds output with the identity of max.
__global__ void prefix_sum_kernel(const int* input, int* prefix, int* output, int N) {
    __shared__ int buffers[2][kScanThreads];
    __shared__ int carry;
    const int t = threadIdx.x;
    if (t == 0) {
        carry = 0;
        prefix[0] = 0;
        output[0] = INT_MIN;  // not 0: every window may be negative
    }
    for (int tile = 0; tile < N; tile += kScanThreads) {
        int in = 0;  // ping-pong between the two buffers so no step reads what it overwrites
        buffers[in][t] = tile + t < N ? input[tile + t] : 0;
        __syncthreads();
        for (int offset = 1; offset < kScanThreads; offset *= 2) {
            const int value = buffers[in][t] + (t >= offset ? buffers[in][t - offset] : 0);
            buffers[1 - in][t] = value;
            in = 1 - in;
            __syncthreads();
        }
        if (tile + t < N) prefix[tile + t + 1] = carry + buffers[in][t];
        __syncthreads();  // everyone has read carry before thread 0 moves it on
        if (t == 0) carry += buffers[in][kScanThreads - 1];
        __syncthreads();
    }
}

__global__ void window_max_kernel(const int* prefix, int* output, int num_windows, int window_size) {
    __shared__ int best[kThreads];
    int value = INT_MIN;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_windows; i += gridDim.x * blockDim.x)
        value = max(value, prefix[i + window_size] - prefix[i]);
    best[threadIdx.x] = value;
    __syncthreads();
    // Sequential addressing: active threads stay contiguous and shared-memory banks never conflict.
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) best[threadIdx.x] = max(best[threadIdx.x], best[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicMax(output, best[0]);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    // Scratch for the prefix sums, kept between calls (it holds no answer, only scratch space).
    static int* d_prefix = nullptr;
    static int capacity = 0;
    if (N + 1 > capacity) {
        cudaFree(d_prefix);
        cudaMalloc(&d_prefix, (N + 1) * sizeof(int));
        capacity = N + 1;
    }
    prefix_sum_kernel<<<1, kScanThreads>>>(input, d_prefix, output, N);

    const int num_windows = N - window_size + 1;
    const int blocks = (num_windows + kThreads - 1) / kThreads;
    window_max_kernel<<<blocks, kThreads>>>(d_prefix, output, num_windows, window_size);
}
