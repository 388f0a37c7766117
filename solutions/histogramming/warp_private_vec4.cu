// expect: accepted
// step: 3
// Technique: privatisation taken further. Every warp owns a histogram in shared memory, so the shared atomics
// of different warps never collide; int4 loads keep enough bytes in flight to saturate DRAM. At the end the
// block adds its warps' copies bin by bin and publishes each non-empty bin with one global atomicAdd.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;  // int4 loads issued before the first is used: 64 bytes in flight per thread

__device__ void count4(int* warp_histogram, int4 v) {
    atomicAdd(&warp_histogram[v.x], 1);
    atomicAdd(&warp_histogram[v.y], 1);
    atomicAdd(&warp_histogram[v.z], 1);
    atomicAdd(&warp_histogram[v.w], 1);
}

__global__ void __launch_bounds__(kThreads)
histogram_vec4(const int* input, int* histogram, int N, int num_bins) {
    extern __shared__ int warp_histograms[];  // kWarps copies of num_bins counters
    for (int b = threadIdx.x; b < kWarps * num_bins; b += kThreads) warp_histograms[b] = 0;
    __syncthreads();

    int* mine = warp_histograms + (threadIdx.x / 32) * num_bins;
    // cudaMalloc'd buffers are 256-byte aligned, so the int4 view is safe; the N % 4 tail is read singly.
    const int4* input4 = reinterpret_cast<const int4*>(input);
    const int num_vectors = N / 4;
    const int stride = gridDim.x * kThreads;
    int i = blockIdx.x * kThreads + threadIdx.x;
    for (; i + (kUnroll - 1) * stride < num_vectors; i += kUnroll * stride) {
        int4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(&input4[i + u * stride]);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count4(mine, v[u]);
    }
    for (; i < num_vectors; i += stride) count4(mine, __ldg(&input4[i]));
    const int tail = 4 * num_vectors + blockIdx.x * kThreads + threadIdx.x;
    if (tail < N) atomicAdd(&mine[input[tail]], 1);
    __syncthreads();

    for (int b = threadIdx.x; b < num_bins; b += kThreads) {
        int count = 0;
        for (int w = 0; w < kWarps; ++w) count += warp_histograms[w * num_bins + b];
        if (count != 0) atomicAdd(&histogram[b], count);
    }
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    // Resident blocks per SM depend on the shared memory that num_bins asks for; the answer is cached per
    // num_bins (a property of the device and the kernel, not of any input).
    static int grid_for_bins[1025] = {};
    const size_t shared_bytes = static_cast<size_t>(kWarps) * num_bins * sizeof(int);
    int& grid = grid_for_bins[num_bins];
    if (grid == 0) {
        int device = 0, num_sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_vec4, kThreads, shared_bytes);
        grid = num_sms * (per_sm > 0 ? per_sm : 1);
    }
    int blocks = (N / 4 + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > grid) blocks = grid;
    cudaMemsetAsync(histogram, 0, num_bins * sizeof(int));
    histogram_vec4<<<blocks, kThreads, shared_bytes>>>(input, histogram, N, num_bins);
}
