// expect: accepted
// Technique: triton.py's kernel written in CUDA, for comparing the two languages on one kernel: one
// block of 128 threads (Triton's four warps) per 4096 elements, each thread holding eight float4s in
// Triton's blocked layout (element 512 * rep + 4 * thread + j), a tree sum of the block, and one
// atomicAdd per block into output, zeroed first by a kernel of its own, as triton.py's output.zero_()
// launches torch's fill kernel (two kernels in both: a memset instead measured 2.9 µs less at 100M).
#include <cuda_runtime.h>

namespace {

constexpr int kBlock = 4096;
constexpr int kThreads = 128;
constexpr int kVectors = kBlock / (4 * kThreads);  // float4s per thread
constexpr int kWarps = kThreads / 32;

__device__ float block_sum(float sum) {
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ float warp_sums[kWarps];
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    sum = 0.0f;
    if (threadIdx.x == 0)
        for (int w = 0; w < kWarps; ++w) sum += warp_sums[w];
    return sum;
}

__global__ void __launch_bounds__(kThreads) block_sum_kernel(const float* input, float* output, int N) {
    const long long start = static_cast<long long>(blockIdx.x) * kBlock;
    float sum = 0.0f;
    if (start + kBlock <= N) {  // a whole block: unmasked 16-byte loads, all in flight
        const float4* vectors = reinterpret_cast<const float4*>(input + start);
        float4 v[kVectors];
#pragma unroll
        for (int u = 0; u < kVectors; ++u) v[u] = vectors[u * kThreads + threadIdx.x];
#pragma unroll
        for (int u = 0; u < kVectors; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    } else {  // the tail: Triton's mask, other=0.0
        for (int u = 0; u < kVectors; ++u)
            for (int j = 0; j < 4; ++j) {
                const long long i = start + 4 * (u * kThreads + threadIdx.x) + j;
                sum += i < N ? input[i] : 0.0f;
            }
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) atomicAdd(output, sum);
}

__global__ void zero(float* output) {
    *output = 0.0f;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    zero<<<1, 1>>>(output);
    block_sum_kernel<<<(N + kBlock - 1) / kBlock, kThreads>>>(input, output, N);
}
