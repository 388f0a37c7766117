// expect: accepted
// Technique: two passes with per-block partial sums in scratch memory from cudaMallocAsync, all on
// a private cudaStreamNonBlocking stream: allocate, one partial per block, one block sums the
// partials into the result, cudaFreeAsync; solve returns without synchronising. The stream-ordered
// pool reuses the scratch from call to call without a device-wide synchronisation. Correct once
// the judge has finished copying the inputs before the call.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 1056;

__device__ float block_sum(float value) {
    __shared__ float warp_sums[kThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void partial_dots(const float* a, const float* b, int n, float* partials) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum = fmaf(a[i], b[i], sum);
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void sum_partials(const float* partials, int count, float* result) {
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) *result = sum;
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    static cudaStream_t stream = nullptr;
    if (!stream) cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    float* partials = nullptr;
    cudaMallocAsync(reinterpret_cast<void**>(&partials), kBlocks * sizeof(float), stream);
    partial_dots<<<kBlocks, kThreads, 0, stream>>>(A, B, N, partials);
    sum_partials<<<1, kThreads, 0, stream>>>(partials, kBlocks, result);
    cudaFreeAsync(partials, stream);
}
