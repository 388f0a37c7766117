// How long the hold on the default stream takes to let go: from the host's release to the end of a
// device-wide synchronise, with nothing queued behind the spinner but two events. The judge's spinner
// (harness/device/blocking_kernel.cu) takes every SM's thread slots; this times it with every block polling
// the host's flag, and with one block polling it and the others a copy in device memory (what the
// judge does), beside a single polling thread (nvbench's blocking kernel).
//   nvcc -O3 -arch=sm_90 -o release_latency tests/gpu/release_latency.cu && ./release_latency
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                                    \
    do {                                                                                            \
        cudaError_t e = (x);                                                                        \
        if (e != cudaSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
            std::exit(1);                                                                           \
        }                                                                                           \
    } while (0)

namespace {

// Every block's first thread polls the host's flag; the others wait at the barrier.
__global__ void every_block_polls_host(volatile int* flag) {
    if (threadIdx.x == 0)
        while (*flag == 0) {
        }
    __syncthreads();
}

// Block 0 polls the host's flag and passes the release on through device memory.
__global__ void one_block_polls_host(volatile int* flag, volatile unsigned* released, unsigned generation) {
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0) {
            while (*flag == 0) {
            }
            *released = generation;
        } else {
            while (*released != generation) {
            }
        }
    }
    __syncthreads();
}

struct percentiles {
    double p10, median, p90;
};

percentiles of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const auto at = [&](double q) { return values[static_cast<std::size_t>(q * (values.size() - 1))]; };
    return {at(0.1), at(0.5), at(0.9)};
}

double us_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::micro>(b - a).count();
}

}  // namespace

int main() {
    int device = 0, sms = 0, threads_per_sm = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    const int filling = sms * std::max(1, threads_per_sm / 1024);
    int *h_flag = nullptr, *d_flag = nullptr;
    CHECK(cudaHostAlloc(&h_flag, sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_flag), h_flag, 0));
    unsigned* d_released = nullptr;
    CHECK(cudaMalloc(&d_released, sizeof(unsigned)));
    CHECK(cudaMemset(d_released, 0, sizeof(unsigned)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    unsigned generation = 0;

    struct variant {
        const char* name;
        int blocks, threads;
        bool one_poller;
    };
    const std::vector<variant> variants = {{"one thread polls the host", 1, 1, false},
                                           {"every block polls the host (one per SM)", sms, 1024, false},
                                           {"every block polls the host (filling the device)", filling, 1024, false},
                                           {"block 0 polls the host, the others device memory", filling, 1024, true}};
    std::printf("release -> synchronise, us over 200 calls (%d SMs, %d blocks fill them)\n", sms, filling);
    for (const variant& v : variants) {
        std::vector<double> release_us, queue_us;
        for (int i = 0; i < 200; ++i) {
            CHECK(cudaDeviceSynchronize());
            const auto t0 = std::chrono::steady_clock::now();
            *h_flag = 0;
            std::atomic_thread_fence(std::memory_order_seq_cst);
            if (v.one_poller)
                one_block_polls_host<<<v.blocks, v.threads>>>(d_flag, d_released, ++generation);
            else
                every_block_polls_host<<<v.blocks, v.threads>>>(d_flag);
            CHECK(cudaEventRecord(start, 0));
            CHECK(cudaEventRecord(stop, 0));
            std::atomic_thread_fence(std::memory_order_seq_cst);
            *h_flag = 1;
            const auto t1 = std::chrono::steady_clock::now();
            CHECK(cudaDeviceSynchronize());
            const auto t2 = std::chrono::steady_clock::now();
            queue_us.push_back(us_between(t0, t1));
            release_us.push_back(us_between(t1, t2));
        }
        const percentiles r = of(release_us);
        std::printf("%-50s median %7.1f  p10 %7.1f  p90 %7.1f  (queueing %.1f)\n", v.name, r.median, r.p10, r.p90,
                    of(queue_us).median);
    }
    return 0;
}
