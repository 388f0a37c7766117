// Times a matrix-sum solution's solve(matrix, sums, rows, cols) outside the judge, the judge's way (held
// back behind a spinning kernel, L2 flushed by a read before each call), on random or constant data, one
// buffer or five in turn: to tell the kernel's limit from the harness's.
//   nvcc -O3 -arch=sm_90 -DSOLUTION='"solutions/matrix_row_sum/staged_short_rows.cu"' tests/gpu/solve_probe.cu
#include SOLUTION

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void spin_until(volatile int* flag) {
    while (*flag == 0) {
    }
}
__global__ void flush_read(const float4* p, size_t n, float* sink) {
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        acc += __ldg(p + i).x;
    if (acc == 1234.5f) *sink = acc;
}
__global__ void fill_random(float* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        p[i] = (x & 0xffffff) / 83886.08f - 100.0f;
    }
}

int main() {
    const size_t elements = 100000000, flush_bytes = size_t{256} << 20;
    std::vector<float*> inputs(5);
    for (auto& p : inputs) cudaMalloc(&p, elements * 4);
    float *out, *sink, *flush;
    int* flag;
    cudaMalloc(&out, 4 * 2000000 + (1 << 20));
    cudaMalloc(&sink, 4);
    cudaMalloc(&flush, flush_bytes);
    cudaHostAlloc(&flag, 4, cudaHostAllocMapped);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::printf("| shape | data | buffers | median µs | GB/s |\n|---|---|---:|---:|---:|\n");
    for (int random : {1, 0}) {
        for (int b = 0; b < 5; ++b)
            if (random) fill_random<<<1024, 256>>>(inputs[b], elements, b);
            else cudaMemset(inputs[b], 0, elements * 4);
        for (auto [rows, cols] : {std::pair{1000000, 100}, {10000, 10000}, {100, 1000000}, {2000000, 50}, {500000, 200}})
            for (int buffers : {1, 5}) {
                std::vector<float> samples;
                for (int rep = 0; rep < 40; ++rep) {
                    flush_read<<<1024, 256>>>((const float4*)flush, flush_bytes / 16, sink);
                    *flag = 0;
                    spin_until<<<1, 1>>>(flag);
                    cudaEventRecord(start);
                    solve(inputs[rep % buffers], out, rows, cols);
                    cudaEventRecord(stop);
                    *flag = 1;
                    cudaEventSynchronize(stop);
                    float ms = 0;
                    cudaEventElapsedTime(&ms, start, stop);
                    if (rep >= 5) samples.push_back(ms * 1000);
                }
                std::sort(samples.begin(), samples.end());
                const float us = samples[samples.size() / 2];
                std::printf("| %d x %d | %s | %d | %.1f | %.0f |\n", rows, cols, random ? "random" : "zeros", buffers, us,
                            4.0 * elements / us / 1e3);
            }
    }
    std::printf("error: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
