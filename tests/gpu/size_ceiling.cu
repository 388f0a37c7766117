// What the memory can do at the sizes of the benchmarks, timed the way the judge times solve
// (held_back.cuh): a read sweep and a copy kernel at each size, beside cudaMemcpy D2D, after the
// fixed cost of any call, an empty kernel timed the same way.
//   nvcc -O3 -arch=sm_90 -o size_ceiling tests/gpu/size_ceiling.cu && ./size_ceiling
#include "held_back.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                           \
    do {                                                                                   \
        cudaError_t e = (x);                                                               \
        if (e != cudaSuccess) {                                                            \
            std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

// One float4 per thread and iteration: on the H100 at 41 MB this took 26.1-26.2 µs, where four loads
// before four stores took 27.0 µs.
__global__ void copy_kernel(const float4* p, float4* q, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) q[i] = p[i];
}

__global__ void empty_kernel() {}

int main() {
    const size_t max_bytes = size_t{1} << 30;
    char *src, *dst;
    CHECK(cudaMalloc(&src, max_bytes));
    CHECK(cudaMalloc(&dst, max_bytes));
    CHECK(cudaMemset(src, 1, max_bytes));
    held_back_timer timer;
    const int sms = timer.sms();
    auto median_us = [&](auto work) { return timer.median_us(work); };
    std::printf("empty kernel: %.1f µs with <<<1, 32>>>, %.1f µs with the sweeps' <<<%d, 256>>>\n\n",
                median_us([] { empty_kernel<<<1, 32>>>(); }), median_us([&] { empty_kernel<<<sms * 8, 256>>>(); }),
                sms * 8);
    std::printf(
        "| MB | read sweep µs | read GB/s | copy kernel µs | copy GB/s (r+w) | memcpy D2D µs | memcpy GB/s (r+w) "
        "|\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (double mb : {4.0, 16.0, 20.0, 40.0, 41.0, 82.0, 400.0, 477.0, 1024.0}) {
        const size_t bytes = (size_t)(mb * 1e6) / 16 * 16;
        const size_t n = bytes / 16;
        const int grid = sms * 8, block = 256;
        const float r = median_us([&] { read_sweep<<<grid, block>>>((const float4*)src, n, timer.sink()); });
        const size_t half = std::min(bytes, max_bytes) / 16;
        const float c = median_us([&] { copy_kernel<<<grid, block>>>((const float4*)src, (float4*)dst, half); });
        const float m = median_us([&] { cudaMemcpyAsync(dst, src, half * 16, cudaMemcpyDeviceToDevice); });
        std::printf("| %.0f | %.1f | %.0f | %.1f | %.0f | %.1f | %.0f |\n", mb, r, bytes / r / 1e3, c,
                    2.0 * half * 16 / c / 1e3, m, 2.0 * half * 16 / m / 1e3);
    }
    CHECK(cudaGetLastError());
    return 0;
}
