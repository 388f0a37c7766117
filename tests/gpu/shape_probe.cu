// Where a 400 MB read loses time: contiguous block-sized chunks of float4 loads, with and without a
// small write per block, at several chunk sizes, beside a grid-stride sweep. Timed like size_ceiling.cu
// (held_back.cuh).
//   nvcc -O3 -arch=sm_90 -o shape_probe tests/gpu/shape_probe.cu && ./shape_probe
#include "held_back.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

// The sum of U * 256 float4s from `base` (one round: all of a thread's U loads in flight).
template <int U>
__device__ float chunk_sum(const float4* p, size_t base, size_t n) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
        const size_t i = base + u * 256 + threadIdx.x;
        v[u] = i < n ? __ldg(p + i) : make_float4(0, 0, 0, 0);
    }
    float acc = 0;
#pragma unroll
    for (int u = 0; u < U; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    return acc;
}

// Each block reads one chunk of U * 256 float4s, writes `outs` floats.
template <int U>
__global__ void __launch_bounds__(256) chunks(const float4* p, size_t n, float* out, int outs) {
    const float acc = chunk_sum<U>(p, (size_t)blockIdx.x * U * 256, n);
    __shared__ float s[256];
    s[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x < outs)
        out[(size_t)blockIdx.x * outs + threadIdx.x] = s[threadIdx.x] + s[255 - threadIdx.x];
    else if (acc == 1234.5f)
        out[0] = acc;
}

// Persistent: grid of resident blocks, each loops over chunks of U * 256 float4s.
template <int U>
__global__ void __launch_bounds__(256) persistent(const float4* p, size_t n, float* out, int outs) {
    const size_t num_chunks = (n + U * 256 - 1) / (U * 256);
    for (size_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
        const float acc = chunk_sum<U>(p, c * U * 256, n);
        if (threadIdx.x < outs)
            out[c * outs + threadIdx.x] = acc;
        else if (acc == 1234.5f)
            out[0] = acc;
    }
}

int main() {
    const size_t bytes = 400000000, n = bytes / 16;
    float4* src;
    float* out;
    cudaMalloc(&src, bytes);
    cudaMalloc(&out, 64 << 20);
    cudaMemset(src, 1, bytes);
    held_back_timer timer;
    const int sms = timer.sms();
    float* sink = timer.sink();
    auto median_us = [&](const char* name, auto work) {
        const float us = timer.median_us(work);
        std::printf("| %s | %.1f | %.0f |\n", name, us, bytes / us / 1e3);
    };
    std::printf("| 400 MB read as | µs | GB/s |\n|---|---:|---:|\n");
    median_us("grid-stride sweep, 8 blocks/SM", [&] { read_sweep<<<sms * 8, 256>>>(src, n, sink); });
    median_us("grid-stride sweep, 16 blocks/SM", [&] { read_sweep<<<sms * 16, 256>>>(src, n, sink); });
    for (int outs : {0, 80}) {
        char name[96];
        std::snprintf(name, sizeof name, "chunks of 8 KB (U=2), %d floats out", outs);
        median_us(name, [&] { chunks<2><<<(n + 511) / 512, 256>>>(src, n, out, outs); });
        std::snprintf(name, sizeof name, "chunks of 32 KB (U=8), %d floats out", outs);
        median_us(name, [&] { chunks<8><<<(n + 2047) / 2048, 256>>>(src, n, out, outs); });
        std::snprintf(name, sizeof name, "chunks of 64 KB (U=16), %d floats out", outs);
        median_us(name, [&] { chunks<16><<<(n + 4095) / 4096, 256>>>(src, n, out, outs); });
        std::snprintf(name, sizeof name, "persistent 32 KB chunks, 8 blocks/SM, %d out", outs);
        median_us(name, [&] { persistent<8><<<sms * 8, 256>>>(src, n, out, outs); });
        std::snprintf(name, sizeof name, "persistent 16 KB chunks, 8 blocks/SM, %d out", outs);
        median_us(name, [&] { persistent<4><<<sms * 8, 256>>>(src, n, out, outs); });
    }
    std::printf("error: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
