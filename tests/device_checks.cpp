// Checks on a GPU that the device space agrees with the host bit for bit: generated inputs, the
// first differing byte of two buffers, and mismatch counts under the element rule. Prints one line
// per check and "N passed, M failed"; without a usable GPU, exits 77 (CTest's skip code).
#include "buffers/memory_space.hpp"
#include "checks/compare.hpp"
#include "checks/poison_watch.hpp"
#include "device/cuda_check.hpp"
#include "device/cuda_resources.hpp"
#include "inputs/generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gpujudge;

namespace {

constexpr int kSkip = 77;

class checks {
public:
    void report(bool ok, const std::string& name, const std::string& detail = "") {
        std::printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", name.c_str(), detail.empty() ? "" : ": ", detail.c_str());
        std::fflush(stdout);
        (ok ? passed_ : failed_)++;
    }
    int failed() const { return failed_; }
    void summarize() const { std::printf("%d passed, %d failed\n", passed_, failed_); }

private:
    int passed_ = 0, failed_ = 0;
};

// The reason no GPU can be used, or nothing.
std::optional<std::string> missing_gpu() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) return describe_cuda_error(status);
    if (count == 0) return std::string("no CUDA-capable device is detected");
    return std::nullopt;
}

std::string describe(std::optional<std::size_t> offset) {
    return offset ? std::to_string(*offset) : "none";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- generation ----

struct named_generator {
    const char* name;
    generator_spec spec;
};

generator_spec make(generator_kind kind, std::vector<std::string> args, std::vector<double> values = {}) {
    generator_spec gen;
    gen.kind = kind;
    gen.args = std::move(args);
    gen.values = std::move(values);
    return gen;
}

// Every kind, with values that test rounding to float and saturation to int32.
std::vector<named_generator> generators_for(std::size_t n) {
    std::vector<double> literal(n);
    for (std::size_t i = 0; i < n; ++i) literal[i] = static_cast<double>(i % 1000003) * 0.3 - 7;
    return {
        {"uniform", make(generator_kind::uniform, {"-1000", "1000"})},
        {"normal", make(generator_kind::normal, {"3", "2"})},
        {"integers", make(generator_kind::integers, {"-1000000.5", "N"})},
        {"constant", make(generator_kind::constant, {"7.25"})},
        {"cycle", make(generator_kind::cycle, {}, {0.1, -2.75, 1e10, -1e10, 3.5})},
        {"ramp", make(generator_kind::ramp, {"5", "0.37"})},
        {"literal", make(generator_kind::literal, {}, std::move(literal))},
    };
}

std::string first_differing_element(const host_array& expected, const host_array& got) {
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (expected.bits(i) != got.bits(i))
            return fmt::format("element {}: host {:08x}, device {:08x}", i, expected.bits(i), got.bits(i));
    return "";
}

void check_generation(checks& out, memory_space& device, const named_generator& gen, element_type type, std::size_t n,
                      std::uint64_t stream) {
    const scalar_values scalars{{"N", static_cast<double>(n)}};
    host_array expected(type, n), got(type, n);
    generate(gen.spec, scalars, 42, stream, expected);
    device_allocation d_out(expected.size_bytes());
    const auto start = std::chrono::steady_clock::now();
    device.generate(d_out.get(), make_generator_params(gen.spec, scalars, 42, stream), type, n);
    const double seconds = seconds_since(start);
    device.download(got.data(), d_out.get(), got.size_bytes());
    const bool ok = std::memcmp(expected.data(), got.data(), got.size_bytes()) == 0;
    std::string detail = ok ? "" : first_differing_element(expected, got);
    if (ok && n > 1000000) detail = fmt::format("device {:.1f} ms", seconds * 1e3);
    out.report(ok, fmt::format("generate {} {} n={}", gen.name, to_string(type), n), detail);
}

void check_generators(checks& out, memory_space& device) {
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, (std::size_t{1} << 20) + 3, std::size_t{100'000'003}}) {
        const auto gens = generators_for(n);
        for (std::size_t k = 0; k < gens.size(); ++k)
            for (element_type type : {element_type::f32, element_type::i32})
                check_generation(out, device, gens[k], type, n, k);
    }
}

// ---- first difference ----

// Two equal buffers on both sides; differences are planted into `b` on both sides alike.
struct buffer_pair {
    std::vector<unsigned char> h_a, h_b;
    device_allocation d_a, d_b;

    buffer_pair(memory_space& device, std::size_t num_bytes) : h_a(num_bytes), d_a(num_bytes), d_b(num_bytes) {
        host_array words(element_type::i32, (num_bytes + 3) / 4);
        generate(make(generator_kind::integers, {"-2147483648", "2147483647"}), {}, 1, 0, words);
        std::memcpy(h_a.data(), words.data(), num_bytes);
        h_b = h_a;
        device.upload(d_a.get(), h_a.data(), num_bytes);
        device.upload(d_b.get(), h_b.data(), num_bytes);
    }
    unsigned char* a() const { return static_cast<unsigned char*>(d_a.get()); }
    unsigned char* b() const { return static_cast<unsigned char*>(d_b.get()); }
    void set_b(memory_space& device, std::size_t at, unsigned char value) {
        h_b[at] = value;
        device.upload(b() + at, &value, 1);
    }
};

void check_first_difference(checks& out, memory_space& device, memory_space& host, buffer_pair& pair,
                            std::size_t offset, std::vector<std::size_t> plants, const std::string& name) {
    const std::size_t num_bytes = pair.h_a.size() - offset;
    for (std::size_t at : plants) pair.set_b(device, offset + at, pair.h_a[offset + at] ^ 0x10);
    const auto on_host = host.first_difference(pair.h_a.data() + offset, pair.h_b.data() + offset, num_bytes);
    const auto on_device = device.first_difference(pair.a() + offset, pair.b() + offset, num_bytes);
    std::optional<std::size_t> expected;
    for (std::size_t at : plants) expected = std::min(at, expected.value_or(at));
    for (std::size_t at : plants) pair.set_b(device, offset + at, pair.h_a[offset + at]);
    const bool ok = on_device == expected && on_host == expected;
    out.report(
        ok, fmt::format("first_difference {} (bytes={}, offset={})", name, num_bytes, offset),
        fmt::format("expected {}, host {}, device {}", describe(expected), describe(on_host), describe(on_device)));
}

void check_first_differences(checks& out, memory_space& device, memory_space& host, std::size_t num_bytes) {
    buffer_pair pair(device, num_bytes);
    const std::size_t last = num_bytes - 1;
    check_first_difference(out, device, host, pair, 0, {}, "none");
    check_first_difference(out, device, host, pair, 0, {0}, "first byte");
    check_first_difference(out, device, host, pair, 0, {last}, "last byte");
    check_first_difference(out, device, host, pair, 0, {num_bytes / 2 + 5}, "middle");
    check_first_difference(out, device, host, pair, 0, {last - 3}, "in the byte tail");
    check_first_difference(out, device, host, pair, 0, {16 * 1000 + 15, 16 * 1000 + 7}, "two in one word");
    check_first_difference(out, device, host, pair, 0, {last, num_bytes / 3, num_bytes / 2}, "several");
    // Unaligned starts take the byte path for all of it.
    check_first_difference(out, device, host, pair, 1, {}, "unaligned, none");
    check_first_difference(out, device, host, pair, 3, {last - 3 - 1, num_bytes / 2}, "unaligned");
}

// ---- the check that outputs still hold poison when solve is called (poison_watch.hpp) ----

// An empty call, held back or not, watching one output of `num_words` words where `written` words
// (from the first, or the last when `at_end`) no longer hold the poison.
std::optional<early_write> watched_call(memory_space& device, bool held, std::size_t num_words, std::size_t written,
                                        bool at_end) {
    constexpr unsigned char kPoison = 0xA5;
    device_allocation d_output(num_words * sizeof(std::uint32_t));
    GJ_CUDA_CHECK(cudaMemset(d_output.get(), kPoison, d_output.size_bytes()));
    const std::size_t first = at_end ? num_words - written : 0;
    auto* d_words = static_cast<std::uint32_t*>(d_output.get());
    GJ_CUDA_CHECK(cudaMemset(d_words + first, 0, written * sizeof(std::uint32_t)));
    poison_watch watch;
    watch.outputs[0] = {d_words, num_words, 0x01010101u * kPoison};
    watch.num_outputs = 1;
    const auto timer = device.make_timer();
    timer->set_blocking(held);
    timer->watch(watch);
    const call_status status = call_between_hooks(device, *timer, [] {});
    if (!status.ok) throw std::runtime_error(status.error);
    return timer->written_before_call();
}

// ---- host work beside solve (thread_cpu.hpp): a host function shows in the other threads' CPU time ----

void CUDART_CB spin_30_us(void*) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(30);
    while (std::chrono::steady_clock::now() < end) {
    }
}

// The median of the timer's other-threads reading over 21 held calls (what may_hold_back weighs), with
// or without a host function that spins 30 µs queued on a stream of the call's own.
double other_threads_us(memory_space& device, bool host_function) {
    cuda_stream stream(cudaStreamNonBlocking);
    const auto timer = device.make_timer();
    timer->set_blocking(true);
    std::vector<double> readings;
    for (int i = 0; i < 21; ++i) {
        const call_status status = call_between_hooks(device, *timer, [&] {
            if (host_function) GJ_CUDA_CHECK(cudaLaunchHostFunc(stream.get(), spin_30_us, nullptr));
        });
        if (!status.ok) throw std::runtime_error(status.error);
        readings.push_back(1e3 * timer->other_threads_ms());
    }
    std::nth_element(readings.begin(), readings.begin() + 10, readings.end());
    return readings[10];
}

void check_other_threads(checks& out, memory_space& device) {
    const double empty = other_threads_us(device, false), hosted = other_threads_us(device, true);
    out.report(empty < 2.0, "other threads' CPU, empty held calls: under the 2 us a call allowed",
               fmt::format("{:.2f} us", empty));
    out.report(hosted >= 25.0, "other threads' CPU, a 30 us host function a call on a stream of its own: seen",
               fmt::format("{:.2f} us", hosted));
}

void check_poison_watch(checks& out, memory_space& device) {
    for (const bool held : {true, false}) {
        const std::string how = held ? "held back" : "not held back";
        for (const std::size_t num_words : {std::size_t{1}, std::size_t{1} << 20}) {
            const auto clean = watched_call(device, held, num_words, 0, false);
            out.report(!clean, fmt::format("poison watch, {}, {} words untouched", how, num_words),
                       clean ? fmt::format("found word {}", clean->word) : "");
            const auto first = watched_call(device, held, num_words, 1, false);
            out.report(first && first->word == 0 && first->value == 0,
                       fmt::format("poison watch, {}, {} words, the first written", how, num_words));
            const auto last = watched_call(device, held, num_words, 1, true);
            out.report(last && last->word == num_words - 1,
                       fmt::format("poison watch, {}, {} words, the last written", how, num_words));
            const auto half = watched_call(device, held, num_words, (num_words + 1) / 2, true);
            out.report(half.has_value(), fmt::format("poison watch, {}, {} words, half written", how, num_words));
        }
    }
}

// A solve that sets an L2 aside for persisting lines (an access policy window) finds none after the flush
// that comes before every call: the flush resets those lines and the set-aside.
void check_persisting_l2(checks& out, memory_space& device) {
    int device_index = 0, most = 0;
    GJ_CUDA_CHECK(cudaGetDevice(&device_index));
    GJ_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device_index));
    if (most == 0) return out.report(true, "persisting L2: this device has none");
    GJ_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<std::size_t>(most)));
    device.flush_caches();
    std::size_t left = 0;
    GJ_CUDA_CHECK(cudaDeviceGetLimit(&left, cudaLimitPersistingL2CacheSize));
    out.report(left == 0, "persisting L2 set aside by a solve, after the flush",
               fmt::format("{} of {} bytes", left, most));
}

}  // namespace

int main() {
    if (const auto reason = missing_gpu()) {
        std::printf("device checks skipped: no GPU (%s)\n", reason->c_str());
        return kSkip;
    }
    checks out;
    try {
        const auto device = make_device_space();
        const auto host = make_host_space();
        check_generators(out, *device);
        check_first_differences(out, *device, *host, (std::size_t{1} << 22) + 13);
        check_first_differences(out, *device, *host, std::size_t{400'000'013});
        check_poison_watch(out, *device);
        check_other_threads(out, *device);
        check_persisting_l2(out, *device);
    } catch (const std::exception& e) {
        out.report(false, "exception", e.what());
    }
    out.summarize();
    return out.failed() == 0 ? 0 : 1;
}
