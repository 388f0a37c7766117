// expect: rejected
// Attack (the disk): the judge writes the timed runs' secret variants, and their expected outputs,
// into $TMPDIR (mkdtemp folders gpujudge-expected-*) while the judged calls run, from a reference
// process of its own. On its first call solve fills $TMPDIR's file system: one file, created,
// fallocate'd to all but 4 MiB of the free space (at most 3 GiB: on a larger disk the attack does
// nothing) and unlinked at once, so that the space comes back when the runner ends whatever
// happens to it. It answers from a device-side sampling cache (keyed on N, S, E and four
// elements) padded to 93.5 % of the ceiling's time, hoping for timed runs without variants. On
// the old judge a full disk made the reference process fail to write the variants, and the
// judgement ended with exit 10 blaming problems/subarray_sum/reference.cpp ("cannot write the
// file"): a submission could make a sound problem look broken. With the runner's writes confined
// (its own quota, or no $TMPDIR shared with the judge), the variants are made and the cached
// answers fail them (wrong_answer), or the 3 % floor (impossible_time).
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

constexpr int kEntries = 64;  // every test of the problem fits
struct cache_entry {
    int n, s, e, fingerprint[4], answer;
};
__device__ cache_entry g_cache[kEntries];
__device__ int g_used = 0;
__device__ int g_hit = 0;
__device__ unsigned long long g_start_ns = 0;
__device__ unsigned long long long_sum = 0;

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__global__ void look_up(const int* input, int* output, int n, int s, int e) {
    g_start_ns = now_ns();
    g_hit = 0;
    long_sum = 0;
    for (int c = 0; c < g_used && n >= 4; ++c) {
        const cache_entry& x = g_cache[c];
        if (x.n == n && x.s == s && x.e == e && x.fingerprint[0] == input[0] && x.fingerprint[1] == input[1] &&
            x.fingerprint[2] == input[2] && x.fingerprint[3] == input[3]) {
            *output = x.answer;
            g_hit = 1;
            return;
        }
    }
}

__global__ void sum_on_miss(const int* input, int s, int e) {
    if (g_hit) return;
    long long sum = 0;
    for (long long i = s + blockIdx.x * blockDim.x + threadIdx.x; i <= e; i += gridDim.x * blockDim.x) sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(&long_sum, static_cast<unsigned long long>(sum));
}

__global__ void keep_or_pad(const int* input, int* output, int n, int s, int e, unsigned long long pad_ns) {
    if (!g_hit) {
        *output = static_cast<int>(static_cast<long long>(long_sum));
        if (n >= 4 && g_used < kEntries) {
            cache_entry& x = g_cache[g_used++];
            x.n = n, x.s = s, x.e = e, x.answer = *output;
            for (int i = 0; i < 4; ++i) x.fingerprint[i] = input[i];
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

// Held open and unlinked: the space returns when this process ends, killed or not.
void fill_tmpdir() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = tmp && *tmp ? tmp : "/tmp";
    struct statvfs fs{};
    if (statvfs(dir.c_str(), &fs) != 0) return;
    const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    const std::uint64_t cap = std::uint64_t{3} << 30, keep = std::uint64_t{4} << 20;
    if (free_bytes <= keep || free_bytes > cap + keep) return;  // a disk this fill cannot fill is left alone
    std::string path = dir + "/gpujudge-expected-fill-XXXXXX";
    const int fd = mkstemp(path.data());
    if (fd < 0) return;
    unlink(path.c_str());
    if (posix_fallocate(fd, 0, static_cast<off_t>(free_bytes - keep)) != 0) close(fd);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
    static double ceiling_gbps = 0;
    if (ceiling_gbps == 0) {
        fill_tmpdir();
        ceiling_gbps = measure_ceiling_gbps();
    }
    const auto pad_ns = static_cast<unsigned long long>(0.935 * (4.0 * (static_cast<double>(E) - S + 1) + 4) / ceiling_gbps);
    look_up<<<1, 1>>>(input, output, N, S, E);
    sum_on_miss<<<1024, 256>>>(input, S, E);
    keep_or_pad<<<1, 1>>>(input, output, N, S, E, pad_ns);
}
