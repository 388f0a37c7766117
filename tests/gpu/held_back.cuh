// Times GPU work the way the judge times solve, for the standalone probes in this folder: the work is
// queued behind a kernel that spins until the host releases it (launch latency is not timed), and L2 is
// flushed by reading a 256 MB buffer before each sample.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

__global__ void spin_until(volatile int* flag) {
    while (*flag == 0) {
    }
}

// Reads n float4s with four loads in flight per thread; `sink` is written only to keep the loads.
__global__ void read_sweep(const float4* p, size_t n, float* sink) {
    float acc = 0;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float4 a = __ldg(p + i), b = __ldg(p + i + stride), c = __ldg(p + i + 2 * stride),
               d = __ldg(p + i + 3 * stride);
        acc += a.x + b.y + c.z + d.w;
    }
    for (; i < n; i += stride) acc += __ldg(p + i).x;
    if (acc == 1234.5f) *sink = acc;
}

class held_back_timer {
public:
    held_back_timer() {
        cudaMalloc(&flush_, kFlushBytes);
        cudaMemset(flush_, 1, kFlushBytes);
        cudaMalloc(&sink_, sizeof(float));
        cudaHostAlloc(&flag_, sizeof(int), cudaHostAllocMapped);
        cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, 0);
        cudaEventCreate(&start_);
        cudaEventCreate(&stop_);
    }
    int sms() const { return sms_; }
    float* sink() const { return sink_; }

    // Median µs of `work` over `samples` calls after three warm-up calls.
    template <typename Work>
    float median_us(Work&& work, int samples = 22) {
        std::vector<float> times;
        for (int rep = 0; rep < samples + 3; ++rep) {
            read_sweep<<<sms_ * 8, 256>>>(flush_, kFlushBytes / 16, sink_);
            *flag_ = 0;
            spin_until<<<1, 1>>>(flag_);
            cudaEventRecord(start_);
            work();
            cudaEventRecord(stop_);
            *flag_ = 1;
            cudaEventSynchronize(stop_);
            float ms = 0;
            cudaEventElapsedTime(&ms, start_, stop_);
            if (rep >= 3) times.push_back(ms * 1000);
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    }

private:
    static constexpr size_t kFlushBytes = size_t{256} << 20;
    float4* flush_ = nullptr;
    float* sink_ = nullptr;
    int* flag_ = nullptr;
    int sms_ = 0;
    cudaEvent_t start_{}, stop_{};
};
