// expect: accepted
// step: 2
// Technique: bandwidth-bound single pass. int4 loads with several independent loads in flight per thread,
// a register count per thread, warp shuffle then shared memory across warps, one atomicAdd per block.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;  // int4 loads issued before the first is used: 64 bytes in flight per thread

__device__ int matches(int4 v, int K) { return (v.x == K) + (v.y == K) + (v.z == K) + (v.w == K); }

__global__ void __launch_bounds__(kThreads) count_vec4(const int* input, int* output, int N, int K) {
    // cudaMalloc'd buffers are 256-byte aligned, so the int4 view is safe; the N % 4 tail is read singly.
    const int4* input4 = reinterpret_cast<const int4*>(input);
    const int num_vectors = N / 4;
    const int stride = gridDim.x * kThreads;
    int i = blockIdx.x * kThreads + threadIdx.x;
    int count = 0;
    for (; i + (kUnroll - 1) * stride < num_vectors; i += kUnroll * stride) {
        int4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(&input4[i + u * stride]);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count += matches(v[u], K);
    }
    for (; i < num_vectors; i += stride) count += matches(__ldg(&input4[i]), K);
    const int tail = 4 * num_vectors + blockIdx.x * kThreads + threadIdx.x;
    if (tail < N) count += input[tail] == K;

    for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
    __shared__ int warp_counts[kThreads / 32];
    if (threadIdx.x % 32 == 0) warp_counts[threadIdx.x / 32] = count;
    __syncthreads();
    if (threadIdx.x < 32) {
        count = threadIdx.x < kThreads / 32 ? warp_counts[threadIdx.x] : 0;
        for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
        if (threadIdx.x == 0 && count != 0) atomicAdd(output, count);
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int K) {
    static int grid = 0;  // enough resident blocks to fill the GPU, asked once
    if (grid == 0) {
        int device = 0, num_sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_vec4, kThreads, 0);
        grid = num_sms * (per_sm > 0 ? per_sm : 1);
    }
    int blocks = (N / 4 + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > grid) blocks = grid;
    cudaMemsetAsync(output, 0, sizeof(int));
    count_vec4<<<blocks, kThreads>>>(input, output, N, K);
}
