// expect: time_limit_exceeded
// Mistake: block 0 spins on a volatile "all partials are ready" flag that the last block should raise,
// but the last-block test compares the ticket with gridDim.x instead of gridDim.x - 1, so no block ever
// raises it and block 0 waits forever.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 264;

__device__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void dot_kernel(const float* A, const float* B, float* result, float* partials,
                           unsigned int* tickets, int* ready_flag, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];

    __shared__ float warp_sums[kThreads / 32];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();

    if (threadIdx.x == 0) {
        float block_total = 0.0f;
        for (int w = 0; w < kThreads / 32; ++w) block_total += warp_sums[w];
        partials[blockIdx.x] = block_total;
        __threadfence();
        unsigned int ticket = atomicAdd(tickets, 1u);
        if (ticket == gridDim.x) *ready_flag = 1;  // off by one: the last ticket is gridDim.x - 1

        if (blockIdx.x == 0) {
            // A volatile read is a side effect the compiler must repeat, so this loop really spins.
            volatile int* flag = ready_flag;
            while (*flag == 0) {
            }
            float total = 0.0f;
            for (int b = 0; b < gridDim.x; ++b) total += partials[b];
            result[0] = total;
        }
    }
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    static float* d_partials = nullptr;
    static unsigned int* d_tickets = nullptr;
    static int* d_ready_flag = nullptr;
    if (d_partials == nullptr) {
        cudaMalloc(&d_partials, kBlocks * sizeof(float));
        cudaMalloc(&d_tickets, sizeof(unsigned int));
        cudaMalloc(&d_ready_flag, sizeof(int));
    }
    cudaMemset(d_tickets, 0, sizeof(unsigned int));
    cudaMemset(d_ready_flag, 0, sizeof(int));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kBlocks) blocks = kBlocks;
    dot_kernel<<<blocks, kThreads>>>(A, B, result, d_partials, d_tickets, d_ready_flag, N);
}
