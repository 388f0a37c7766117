// expect: accepted
// step: 1
// Technique: online softmax. Each thread keeps a running (max, sum of exp) pair over a grid-stride slice;
// the pairs of a block merge in a shared-memory tree with sequential addressing; a second kernel merges
// the per-block partials and writes exp(x - max) / sum.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kThreads = 256;     // a power of two, for the tree
constexpr int kMaxBlocks = 1024;  // partials the second kernel merges

// The max and the sum of exp(x - max) over a set of values. sum == 0 marks the empty set: any non-empty
// set has sum >= 1, because its maximum contributes exp(0).
struct MaxSum {
    float max;
    float sum;
};

__device__ MaxSum merge(MaxSum a, MaxSum b) {
    if (b.sum == 0.0f) return a;
    if (a.sum == 0.0f) return b;
    const float max = fmaxf(a.max, b.max);
    // Rescale both sums to the common maximum; the smaller exponent is <= 0, so nothing overflows.
    return {max, a.sum * expf(a.max - max) + b.sum * expf(b.max - max)};
}

// Shared-memory tree with sequential addressing: in each step the lower half merges the upper half,
// so active threads stay contiguous and shared-memory accesses are free of bank conflicts.
__device__ MaxSum block_merge(MaxSum value) {
    __shared__ float s_max[kThreads];
    __shared__ float s_sum[kThreads];
    s_max[threadIdx.x] = value.max;
    s_sum[threadIdx.x] = value.sum;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            MaxSum merged = merge({s_max[threadIdx.x], s_sum[threadIdx.x]},
                                  {s_max[threadIdx.x + stride], s_sum[threadIdx.x + stride]});
            s_max[threadIdx.x] = merged.max;
            s_sum[threadIdx.x] = merged.sum;
        }
        __syncthreads();
    }
    MaxSum result = {s_max[0], s_sum[0]};
    __syncthreads();  // the arrays may be reused by a later call in the same kernel
    return result;
}

__global__ void partial_max_sum(const float* input, int N, MaxSum* block_partials) {
    MaxSum running = {-INFINITY, 0.0f};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        const float x = input[i];
        if (x > running.max) {
            // New maximum: rescale what was summed so far, then add exp(0) for x itself.
            running.sum = running.sum * expf(running.max - x) + 1.0f;
            running.max = x;
        } else {
            running.sum += expf(x - running.max);
        }
    }
    MaxSum block = block_merge(running);
    if (threadIdx.x == 0) block_partials[blockIdx.x] = block;
}

__global__ void normalise(const float* input, float* output, int N, const MaxSum* block_partials,
                          int num_partials) {
    // Every block merges all partials itself (a few KB from L2), which saves a third launch.
    MaxSum running = {-INFINITY, 0.0f};
    for (int p = threadIdx.x; p < num_partials; p += blockDim.x) running = merge(running, block_partials[p]);
    const MaxSum total = block_merge(running);
    const float inverse_sum = 1.0f / total.sum;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        output[i] = expf(input[i] - total.max) * inverse_sum;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    // Scratch for the per-block partials, allocated once (it never carries an answer between calls).
    static MaxSum* d_partials = nullptr;
    if (d_partials == nullptr) cudaMalloc(&d_partials, kMaxBlocks * sizeof(MaxSum));

    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    partial_max_sum<<<blocks, kThreads>>>(input, N, d_partials);
    normalise<<<blocks, kThreads>>>(input, output, N, d_partials, blocks);
}
