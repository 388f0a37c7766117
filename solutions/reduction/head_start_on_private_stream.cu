// expect: accepted
// Attack (head start), correct answers: the old timer held the legacy stream back with a one-thread
// spin kernel while solve ran and timed from a start event recorded behind it, so a kernel
// launched on a cudaStreamNonBlocking stream ran during solve's host time on the idle SMs, before
// the start event. solve's first two calls at each N are plain (the judge's input copies may still
// be in flight on the legacy stream: it waits for them); later calls, the timed ones, launch the
// real reduction on the private stream at once, spin on the host for 80 % of a pad, then put on the
// legacy stream a spin kernel of 93.5 % of the time the bytes take at the measured ceiling and
// return. The events saw the pad; the host clock, after the release, the pad too, since most of the
// reduction was done; solve's host time stayed under the event time, so the calls were still held
// back. The old judge reported 93.5 % of the ceiling's time, over the old floor, faster than the
// hardware. With a blocking kernel that occupies every SM, the private kernel cannot start until
// the release and the host clock times all of it: accepted, at an honest time (about that of a
// plain one-pass reduction). validate --run checks only the verdict; the time is the test.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>

namespace {

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__global__ void spin(unsigned long long ns) {
    const unsigned long long start = now_ns();
    while (now_ns() - start < ns) {
    }
}

__global__ void reduce(const float4* input, const float* tail, int n, float* output) {
    float sum = 0.0f;
    const int vectors = n / 4;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < vectors; i += gridDim.x * blockDim.x) {
        const float4 v = input[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) sum += tail[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
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

void spin_on_host(double ns) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(static_cast<long long>(ns));
    while (std::chrono::steady_clock::now() < until) {
    }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static cudaStream_t stream = nullptr;
    static cudaEvent_t inputs_ready = nullptr;
    static double ceiling_gbps = 0;
    static std::map<int, int> calls;
    if (!stream) {
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&inputs_ready, cudaEventDisableTiming);
        ceiling_gbps = measure_ceiling_gbps();
    }
    const bool head_start = ++calls[N] > 2;
    // A misaligned input cannot be read as float4: the judge's buffers are cudaMalloc'ed.
    const auto* vectors = reinterpret_cast<const float4*>(input);
    const float* tail = input + (N / 4) * 4;
    if (!head_start) {
        cudaEventRecord(inputs_ready, 0);
        cudaStreamWaitEvent(stream, inputs_ready, 0);
    }
    cudaMemsetAsync(output, 0, sizeof(float), stream);
    reduce<<<1056, 256, 0, stream>>>(vectors, tail, N, output);
    if (!head_start) return;  // the judge synchronises the whole device
    const double pad_ns = 0.935 * (4.0 * N + 4) / ceiling_gbps;
    spin_on_host(0.8 * pad_ns);
    spin<<<1, 1>>>(static_cast<unsigned long long>(pad_ns));
}
