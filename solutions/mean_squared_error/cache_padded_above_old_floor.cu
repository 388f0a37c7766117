// expect: rejected
// Attack (floor slack): a mean of 100M values moves by less than the tolerance when the timed
// variants change a few of them, so the variants could not tell a replayed answer from a computed
// one and the floor was the only guard. solve fingerprints the first four elements of each input
// (a sampling cache on the device, keyed on N), answers a known fingerprint from the cache without
// reading the inputs, and spins until the call has taken 93.5 % of the time its 8 N bytes take at
// the measured ceiling: just above the old floor (1 / 1.1 = 90.9 %), so the old judge accepted a
// time faster than the memory system allows, never reading its inputs. With a 3 % floor (97.1 %)
// it is impossible_time; with variants that the judge tells apart, wrong_answer.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kEntries = 64;  // every test of the problem fits
struct cache_entry {
    int n;
    float fingerprint[8];
    float answer;
};
__device__ cache_entry g_cache[kEntries];
__device__ int g_used = 0;
__device__ int g_hit = 0;
__device__ unsigned long long g_start_ns = 0;

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__device__ bool same_fingerprint(const cache_entry& e, const float* p, const float* t, int n) {
    if (e.n != n) return false;
    for (int i = 0; i < 4; ++i)
        if (e.fingerprint[i] != p[i] || e.fingerprint[4 + i] != t[i]) return false;
    return true;
}

__global__ void look_up(const float* p, const float* t, float* mse, int n) {
    g_start_ns = now_ns();
    g_hit = 0;
    for (int e = 0; e < g_used && n >= 4; ++e)
        if (same_fingerprint(g_cache[e], p, t, n)) {
            *mse = g_cache[e].answer;
            g_hit = 1;
            return;
        }
    *mse = 0.0f;
}

__global__ void mse_on_miss(const float* p, const float* t, float* mse, int n) {
    if (g_hit) return;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float d = p[i] - t[i];
        sum += d * d;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(mse, sum / n);
}

__global__ void keep_or_pad(const float* p, const float* t, const float* mse, int n, unsigned long long pad_ns) {
    if (!g_hit) {
        if (n >= 4 && g_used < kEntries) {
            cache_entry& e = g_cache[g_used++];
            e.n = n;
            for (int i = 0; i < 4; ++i) e.fingerprint[i] = p[i], e.fingerprint[4 + i] = t[i];
            e.answer = *mse;
        }
        return;
    }
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

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
    static double ceiling_gbps = 0;
    if (ceiling_gbps == 0) ceiling_gbps = measure_ceiling_gbps();
    const auto pad_ns = static_cast<unsigned long long>(0.935 * (8.0 * N + 4) / ceiling_gbps);
    look_up<<<1, 1>>>(predictions, targets, mse, N);
    mse_on_miss<<<1024, 256>>>(predictions, targets, mse, N);
    keep_or_pad<<<1, 1>>>(predictions, targets, mse, N, pad_ns);
}
