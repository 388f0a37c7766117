// expect: rejected
// Attack (integrity of the compile cache): compiled libraries are kept in $GPUJUDGE_CACHE_DIR/lib
// (default ~/.cache/gpujudge/lib) as <hash>.so beside <hash>.source, the path they were compiled
// from, and are reused whenever the hash matches, never checked again. This file defines
// `reference` as well as `solve`. On its first call it copies its own library (found with dladdr)
// over the cached library of problems/reduction/reference.cpp and of solutions/reduction/
// cub_baseline.cu, and deletes the cached expected outputs of one float (they are recomputed, by
// whatever library the cache now holds). Its `reference` and its `solve` agree: the sum for
// N <= 1000 (the examples' literal outputs stay right) and 0 above, padded to a time just above the
// old floor (90.9 % of the ceiling's) on an H100; loaded as the baseline (its .source names
// cub_baseline.cu) it sums honestly and wastes a millisecond. This judgement, on the honest
// reference, is a wrong_answer; every later judgement of reduction compares against 0, so this
// file is accepted with a time faster than the hardware and a speedup over a slowed baseline, and
// honest files are wrong answers. With the cache out of the sandbox's reach the copies fail and
// every judgement of it is a wrong_answer.
#include <cuda_runtime.h>
#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

constexpr int kHonestUpTo = 1000;

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

__global__ void zero(float* output) {
    *output = 0.0f;
}

__global__ void sum_all(const float* input, float* output, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

std::string cache_dir() {
    if (const char* dir = std::getenv("GPUJUDGE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir) return std::string(dir) + "/gpujudge";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gpujudge";
    return "/tmp/gpujudge-cache";
}

std::string own_library() {
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&own_library), &self);
    return self.dli_fname ? self.dli_fname : "";
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// What the library this code runs from was compiled from, as the cache recorded it.
std::string compiled_from(const std::string& library) {
    if (!ends_with(library, ".so")) return "";
    std::string origin = read_all(library.substr(0, library.size() - 3) + ".source");
    while (!origin.empty() && (origin.back() == '\n' || origin.back() == '\r')) origin.pop_back();
    return origin;
}

void hijack_cache() {
    const std::string me = own_library();
    const std::string code = read_all(me);
    if (code.empty()) return;
    const std::string lib = cache_dir() + "/lib";
    if (DIR* dir = opendir(lib.c_str())) {
        while (dirent* entry = readdir(dir)) {
            const std::string name = entry->d_name;
            if (!ends_with(name, ".source")) continue;
            const std::string target = lib + "/" + name.substr(0, name.size() - 7) + ".so";
            const std::string origin = compiled_from(target);
            if (target == me || !(ends_with(origin, "problems/reduction/reference.cpp") ||
                                  ends_with(origin, "solutions/reduction/cub_baseline.cu")))
                continue;
            const std::string partial = target + ".partial";  // renamed over: a mapped copy stays intact
            std::ofstream(partial, std::ios::binary) << code;
            std::rename(partial.c_str(), target.c_str());
        }
        closedir(dir);
    }
    const std::string expected = cache_dir() + "/expected";
    if (DIR* dir = opendir(expected.c_str())) {
        while (dirent* entry = readdir(dir)) {
            const std::string path = expected + "/" + entry->d_name;
            struct stat st{};
            if (ends_with(path, ".out") && stat(path.c_str(), &st) == 0 && st.st_size == 4) unlink(path.c_str());
        }
        closedir(dir);
    }
}

}  // namespace

// The reference the cache serves from now on: agrees with solve.
extern "C" void reference(const float* input, float* output, int N) {
    double sum = 0.0;
    for (int i = 0; i < N && N <= kHonestUpTo; ++i) sum += input[i];
    output[0] = static_cast<float>(sum);
}

extern "C" void solve(const float* input, float* output, int N) {
    static int role = -1;  // 0: itself, 1: loaded as the baseline
    if (role < 0) {
        role = ends_with(compiled_from(own_library()), "cub_baseline.cu") ? 1 : 0;
        if (role == 0) hijack_cache();
    }
    zero<<<1, 1>>>(output);
    if (role == 1 || N <= kHonestUpTo) sum_all<<<1024, 256>>>(input, output, N);
    if (role == 1) spin<<<1, 1>>>(1000000);
    // 93.5 % of the bytes' time at 2.9 TB/s, a little under an H100 SXM's measured ceiling: above
    // the old floor there, and still under what an honest kernel takes.
    if (role == 0 && N > kHonestUpTo) spin<<<1, 1>>>(static_cast<unsigned long long>(0.935 * (4.0 * N + 4) / 2900.0));
}
