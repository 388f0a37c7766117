// expect: rejected
// Attack (the runner's own code): solve runs inside the runner, which checks its outputs. The
// runner is built with its symbol table (RelWithDebInfo); every timed call's outputs are checked on
// the device by gpujudge::count_mismatches_on_device (the timed data sets' expected outputs are
// all copied there), and a count of 0 passes without a look on the host. On its first call solve
// finds that function in /proc/self/exe's .symtab, adds the executable's load address from
// /proc/self/maps, and writes `xor eax, eax; ret` over its first bytes through /proc/self/mem
// (which writes through the text's write protection). Judged calls, compared on the host, are
// computed honestly; from the second call at a timed size (10000 x 10000) on, it writes nothing
// and pads the call to 93.5 % of the time the bytes take at the measured ceiling (above the old
// 90.9 % floor). The old judge accepted a time faster than the hardware for outputs never written.
// Today the runner checks nothing (the judge compares every call's outputs in its own process) and
// that function is gone: the patch finds nothing to patch, and solve cheats all the same, which
// leaves the poisoned outputs: a wrong_answer (never written); with a 3 % floor the padded time
// would be impossible_time too.
#include <cuda_runtime.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

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

__global__ void zero(int* output) {
    *output = 0;
}

__global__ void count(const int* input, int* output, long long n, int k) {
    int found = 0;
    for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) found += input[i] == k;
    for (int offset = 16; offset > 0; offset /= 2) found += __shfl_down_sync(0xffffffffu, found, offset);
    if (threadIdx.x % 32 == 0 && found) atomicAdd(output, found);
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

std::vector<char> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The address of the first function whose symbol contains `name`, in the running executable.
std::uintptr_t find_function(const char* name) {
    const std::vector<char> image = read_file("/proc/self/exe");
    if (image.size() < sizeof(Elf64_Ehdr)) return 0;
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(image.data());
    if (std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64) return 0;
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image.data() + header->e_shoff);
    std::uintptr_t value = 0;
    for (int s = 0; s < header->e_shnum && !value; ++s) {
        if (sections[s].sh_type != SHT_SYMTAB && sections[s].sh_type != SHT_DYNSYM) continue;
        const char* names = image.data() + sections[sections[s].sh_link].sh_offset;
        const auto* symbols = reinterpret_cast<const Elf64_Sym*>(image.data() + sections[s].sh_offset);
        for (std::size_t i = 0; i < sections[s].sh_size / sizeof(Elf64_Sym); ++i)
            if (ELF64_ST_TYPE(symbols[i].st_info) == STT_FUNC && ELF64_ST_BIND(symbols[i].st_info) == STB_GLOBAL &&
                symbols[i].st_value && std::strstr(names + symbols[i].st_name, name) &&
                !std::strchr(names + symbols[i].st_name, '.')) {  // not a .cold clone
                value = symbols[i].st_value;
                break;
            }
    }
    if (!value || header->e_type != ET_DYN) return value;
    // A position-independent executable: add where its first segment was mapped.
    char exe[4096] = {0};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) <= 0) return 0;
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        unsigned long begin = 0, offset = 0;
        if (line.find(exe) == std::string::npos || std::sscanf(line.c_str(), "%lx-%*lx %*s %lx", &begin, &offset) != 2)
            continue;
        if (offset == 0) return begin + value;
    }
    return 0;
}

bool patch_mismatch_count() {
#if defined(__x86_64__)
    const std::uintptr_t function = find_function("26count_mismatches_on_deviceE");  // mangled: the function
    if (!function) return false;
    const unsigned char return_zero[] = {0x31, 0xc0, 0xc3};  // xor eax, eax; ret
    const int mem = open("/proc/self/mem", O_RDWR);
    if (mem < 0) return false;
    const bool ok = pwrite(mem, return_zero, sizeof return_zero, static_cast<off_t>(function)) == sizeof return_zero;
    close(mem);
    return ok;
#else
    return false;
#endif
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
    static double ceiling_gbps = 0;
    static std::map<std::tuple<int, int, int>, int> calls;
    if (ceiling_gbps == 0) {
        ceiling_gbps = measure_ceiling_gbps();
        patch_mismatch_count();  // finds nothing today: the runner checks nothing
    }
    const long long n = static_cast<long long>(N) * M;
    if (n >= (1 << 24) && ++calls[{N, M, K}] > 1) {  // patched or not: the cheat is what is judged
        spin<<<1, 1>>>(static_cast<unsigned long long>(0.935 * (4.0 * n + 4) / ceiling_gbps));
        return;
    }
    zero<<<1, 1>>>(output);
    count<<<1024, 256>>>(input, output, n, K);
}
