// expect: accepted
// step: 1
// Technique: two-stage partials. Kernel 1 sums squares per block with a shared-memory tree (sequential
// addressing); kernel 2 has every block re-add the few partials, then normalises its share of the vector.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 256;

// Sequential addressing: the active threads stay contiguous, so whole warps retire and no bank conflicts.
__device__ float block_sum(float value, float* cache) {
    cache[threadIdx.x] = value;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
    }
    return cache[0];
}

__global__ void sum_of_squares_partials(const float* input, float* partials, int N) {
    __shared__ float cache[kThreads];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i] * input[i];
    const float block_total = block_sum(sum, cache);
    if (threadIdx.x == 0) partials[blockIdx.x] = block_total;
}

__global__ void normalize(const float* input, const float* partials, int num_partials, float gamma,
                          float beta, float* output, int N, float eps) {
    __shared__ float cache[kThreads];
    // At most kMaxBlocks partials: re-adding them in every block is cheaper than a third launch.
    float sum = 0.0f;
    for (int i = threadIdx.x; i < num_partials; i += blockDim.x) sum += partials[i];
    const float sum_of_squares = block_sum(sum, cache);
    const float scale = gamma * rsqrtf(sum_of_squares / N + eps);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        output[i] = input[i] * scale + beta;
}

}  // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
    static float* d_partials = nullptr;  // scratch only: every call overwrites the slots it reads
    if (!d_partials) cudaMalloc(&d_partials, kMaxBlocks * sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    sum_of_squares_partials<<<blocks, kThreads>>>(input, d_partials, N);
    normalize<<<blocks, kThreads>>>(input, d_partials, blocks, gamma, beta, output, N, eps);
}
