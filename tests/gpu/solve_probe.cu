// Times a matrix-sum solution's solve(matrix, sums, rows, cols) outside the judge, the judge's way
// (held_back.cuh), on random or constant data, one buffer or five in turn: to tell the kernel's limit from
// the harness's.
//   nvcc -O3 -arch=sm_90 -DSOLUTION='"solutions/matrix_row_sum/staged_short_rows.cu"' tests/gpu/solve_probe.cu
#include SOLUTION

#include "held_back.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void fill_random(float* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        p[i] = (x & 0xffffff) / 83886.08f - 100.0f;
    }
}

int main() {
    const size_t elements = 100000000;
    std::vector<float*> inputs(5);
    for (auto& p : inputs) cudaMalloc(&p, elements * 4);
    float* out;
    cudaMalloc(&out, 4 * 2000000 + (1 << 20));
    held_back_timer timer;
    std::printf("| shape | data | buffers | median µs | GB/s |\n|---|---|---:|---:|---:|\n");
    for (int random : {1, 0}) {
        for (int b = 0; b < 5; ++b)
            if (random)
                fill_random<<<1024, 256>>>(inputs[b], elements, b);
            else
                cudaMemset(inputs[b], 0, elements * 4);
        for (auto [rows, cols] :
             {std::pair{1000000, 100}, {10000, 10000}, {100, 1000000}, {2000000, 50}, {500000, 200}})
            for (int buffers : {1, 5}) {
                int call = 0;
                const float us = timer.median_us([&] { solve(inputs[call++ % buffers], out, rows, cols); }, 35);
                std::printf("| %d x %d | %s | %d | %.1f | %.0f |\n", rows, cols, random ? "random" : "zeros", buffers,
                            us, 4.0 * elements / us / 1e3);
            }
    }
    std::printf("error: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
