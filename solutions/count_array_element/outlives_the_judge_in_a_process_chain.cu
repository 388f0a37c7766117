// expect: rejected
// Attack (processes that outlive the judge): solve replays answers from a device-side sampling
// cache (keyed on N, K and four elements), padded to 93.5 % of the time its bytes take at the
// measured ceiling (above the old 90.9 % floor). To pass the timed variants it forks, once, a chain
// of eight processes in a session of their own (setsid: the judge's kill of the runner's process
// group misses them). The judge is a child subreaper and kills its untracked children after each
// runner ends, but only those that are its children at that moment: each sweep kills one link, the
// next is reparented after the list was taken. The last link closes every inherited descriptor and,
// for ten minutes, rewrites each 4-byte expected output in the judge's secret folders
// ($TMPDIR/gpujudge-expected-*) to the cached answer nearest to it, reading the answers from a
// shared mapping that the device's cache is copied into: this judgement's variants, and those of
// any judgement that starts within the ten minutes. With the runner in a sandbox that kills every
// process it started and expected outputs out of its reach, the replayed answers fail the variants
// (wrong_answer) or the 3 % floor (impossible_time). Now the first fork ends the runner: a judged solve
// runs alone (judge/process/solve_alone.hpp), with no process or thread of its own (runtime_error).
#include <cuda_runtime.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kEntries = 64;  // every test of the problem fits
struct cache_entry {
    int n, k, fingerprint[4], answer;
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

__global__ void look_up(const int* input, int* output, int n, int k) {
    g_start_ns = now_ns();
    g_hit = 0;
    for (int e = 0; e < g_used && n >= 4; ++e) {
        const cache_entry& c = g_cache[e];
        if (c.n == n && c.k == k && c.fingerprint[0] == input[0] && c.fingerprint[1] == input[1] &&
            c.fingerprint[2] == input[2] && c.fingerprint[3] == input[3]) {
            *output = c.answer;
            g_hit = 1;
            return;
        }
    }
    *output = 0;
}

__global__ void count_on_miss(const int* input, int* output, int n, int k) {
    if (g_hit) return;
    int count = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) count += input[i] == k;
    for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
    if (threadIdx.x % 32 == 0 && count) atomicAdd(output, count);
}

__global__ void keep_or_pad(const int* input, const int* output, int n, int k, unsigned long long pad_ns) {
    if (!g_hit) {
        if (n >= 4 && g_used < kEntries) {
            cache_entry& c = g_cache[g_used++];
            c.n = n, c.k = k, c.answer = *output;
            for (int i = 0; i < 4; ++i) c.fingerprint[i] = input[i];
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

struct shared_answers {
    int used;
    cache_entry entries[kEntries];
};
shared_answers* g_shared = nullptr;  // MAP_SHARED: the chain sees what the device copies in

void rewrite_for(std::chrono::seconds lifetime) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string tmpdir = tmp && *tmp ? tmp : "/tmp";
    const auto end = std::chrono::steady_clock::now() + lifetime;
    while (std::chrono::steady_clock::now() < end) {
        shared_answers now;
        std::memcpy(&now, g_shared, sizeof now);
        std::vector<int> known;
        for (int e = 0; e < std::min(now.used, kEntries); ++e)
            if (now.entries[e].n >= (1 << 24)) known.push_back(now.entries[e].answer);
        DIR* top = known.empty() ? nullptr : opendir(tmpdir.c_str());
        while (dirent* dir = top ? readdir(top) : nullptr) {
            if (std::strncmp(dir->d_name, "gpujudge-expected-", 18) != 0) continue;
            const std::string path = tmpdir + "/" + dir->d_name;
            DIR* d = opendir(path.c_str());
            while (dirent* file = d ? readdir(d) : nullptr) {
                const std::string name = file->d_name;
                if (name.size() < 5 || name.compare(name.size() - 4, 4, ".out") != 0) continue;
                const int fd = open((path + "/" + name).c_str(), O_RDWR);
                if (fd < 0) continue;
                struct stat st{};
                int value = 0;
                if (fstat(fd, &st) == 0 && st.st_size == 4 && pread(fd, &value, 4, 0) == 4) {
                    int nearest = known.front();
                    for (int k : known)
                        if (std::llabs(static_cast<long long>(k) - value) < std::llabs(static_cast<long long>(nearest) - value))
                            nearest = k;
                    if (nearest != value && std::llabs(static_cast<long long>(nearest) - value) < 100000)
                        (void)!pwrite(fd, &nearest, 4, 0);
                }
                close(fd);
            }
            if (d) closedir(d);
        }
        if (top) closedir(top);
        usleep(1000);
    }
}

// runner -> link 1 (setsid) -> link 2 -> ... -> link 8, which does the work; each link waits for
// the next, so that every sweep of the judge's finds only one of them among its children.
void start_chain() {
    if (fork() != 0) return;  // the runner goes back to solve
    setsid();
    for (int fd = 0; fd < 1024; ++fd) close(fd);
    open("/dev/null", O_RDWR), dup(0), dup(0);
    for (int link = 1; link < 8; ++link) {
        const pid_t next = fork();
        if (next < 0) break;
        if (next > 0) {
            waitpid(next, nullptr, 0);
            _exit(0);
        }
    }
    rewrite_for(std::chrono::seconds(600));
    _exit(0);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int K) {
    static double ceiling_gbps = 0;
    if (ceiling_gbps == 0) {
        ceiling_gbps = measure_ceiling_gbps();
        void* shared = mmap(nullptr, sizeof(shared_answers), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared != MAP_FAILED) {
            std::memset(shared, 0, sizeof(shared_answers));
            g_shared = static_cast<shared_answers*>(shared);
            // The chain first: pinned memory may be kept out of children (MADV_DONTFORK), while a
            // mapping shared before the fork stays the same pages once pinned.
            start_chain();
            if (cudaHostRegister(shared, sizeof(shared_answers), cudaHostRegisterDefault) != cudaSuccess)
                g_shared = nullptr;
        }
    }
    const auto pad_ns = static_cast<unsigned long long>(0.935 * (4.0 * N + 4) / ceiling_gbps);
    look_up<<<1, 1>>>(input, output, N, K);
    count_on_miss<<<1024, 256>>>(input, output, N, K);
    keep_or_pad<<<1, 1>>>(input, output, N, K, pad_ns);
    if (g_shared && N >= (1 << 24)) {  // asynchronous: the legacy stream is held back during solve
        cudaMemcpyFromSymbolAsync(&g_shared->used, g_used, sizeof(int), 0, cudaMemcpyDeviceToHost, 0);
        cudaMemcpyFromSymbolAsync(g_shared->entries, g_cache, sizeof(g_shared->entries), 0, cudaMemcpyDeviceToHost, 0);
    }
}
