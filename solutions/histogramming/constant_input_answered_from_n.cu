// expect: rejected
// Attack (floor slack): the benchmark "every value in one bin" has a constant input, and a test
// whose inputs are all constant got no timed variants: its timed runs used its own data only. solve
// looks at five elements (the first four and the last); when they are equal it writes the
// histogram from N alone (every element in that bin) without reading the rest, and spins until the
// call has taken 93.5 % of the time its bytes take at the measured ceiling, just above the old
// floor (90.9 %): an accepted time faster than the hardware allows. Other inputs are counted
// honestly, so the other benchmarks leave honest times. With variants for every timed test (a few
// elements changed) the shortcut answers wrong (wrong_answer); with a 3 % floor the padded time is
// impossible_time.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace {

__device__ int g_shortcut = 0;
__device__ unsigned long long g_start_ns = 0;

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// One block: decides whether the input looks constant, and writes the histogram either way (the
// shortcut's, or zeroes for the atomics that follow).
__global__ void decide(const int* input, int* histogram, int n, int num_bins) {
    __shared__ int looks_constant;
    if (threadIdx.x == 0) {
        g_start_ns = now_ns();
        const int v = input[0];
        looks_constant = n >= 4 && input[1] == v && input[2] == v && input[3] == v && input[n - 1] == v && v >= 0 &&
                         v < num_bins;
        g_shortcut = looks_constant;
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) histogram[b] = looks_constant && b == input[0] ? n : 0;
}

__global__ void count_unless_shortcut(const int* input, int* histogram, int n, int num_bins) {
    if (g_shortcut) return;
    extern __shared__ int bins[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[input[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (bins[b]) atomicAdd(&histogram[b], bins[b]);
}

__global__ void pad_shortcut(unsigned long long pad_ns) {
    if (!g_shortcut) return;
    while (now_ns() - g_start_ns < pad_ns) {
    }
}

__global__ void read_all(const float4* data, std::size_t count, float* sink) {
    float sum = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
        sum += data[i].x + data[i].w;
    if (sum == 1234.5f) *sink = sum;
}

// The judge's ceiling, measured as it does: the better of a 1 GiB device copy and a read kernel.
double measure_ceiling_gbps() {
    const std::size_t bytes = std::size_t{1} << 30;
    void *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 3000;
    cudaMemset(a, 1, bytes);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float best_copy = 1e9f, best_read = 1e9f;
    for (int i = 0; i < 6; ++i) {
        float ms = 0;
        cudaEventRecord(start);
        cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        best_copy = std::min(best_copy, ms);
        cudaEventRecord(start);
        read_all<<<1024, 512>>>(static_cast<const float4*>(a), bytes / 16, static_cast<float*>(b));
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        best_read = std::min(best_read, ms);
    }
    cudaFree(a);
    cudaFree(b);
    return std::max(2.0 * bytes / (best_copy * 1e-3) / 1e9, bytes / (best_read * 1e-3) / 1e9);
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    static double ceiling_gbps = 0;
    if (ceiling_gbps == 0) ceiling_gbps = measure_ceiling_gbps();
    const auto pad_ns = static_cast<unsigned long long>(0.935 * (4.0 * N + 4.0 * num_bins) / ceiling_gbps);
    decide<<<1, 1024>>>(input, histogram, N, num_bins);
    count_unless_shortcut<<<264, 1024, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
    pad_shortcut<<<1, 1>>>(pad_ns);
}
