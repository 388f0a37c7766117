// Checks on a GPU that the device space agrees with the host bit for bit: generated inputs, the
// first element of a buffer not as its recipe makes it, and mismatch counts under the element rule. Prints one line
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

// ---- the after-call check of an input against its recipe (first_ungenerated) ----

// An input made on both sides from one recipe: generated, then `num_changes` secret changes at
// sorted positions. Differences are planted into both copies alike.
struct made_input {
    generator_spec gen = make(generator_kind::uniform, {"-10", "10"});
    generator_params params;
    std::vector<std::uint64_t> h_indices;
    std::vector<std::uint32_t> h_bits;
    std::vector<std::uint32_t> h_now;
    device_allocation d_now;

    made_input(memory_space& device, memory_space& host, std::size_t num_items, std::size_t num_changes)
        : params(make_generator_params(gen, {}, 5, 0)), h_now(num_items), d_now(num_items * 4) {
        for (std::size_t c = 0; c < num_changes; ++c) {
            h_indices.push_back(num_items / num_changes * c + c % 7);
            h_bits.push_back(0x3f800000u + static_cast<std::uint32_t>(c));  // 1.0f and a little more
        }
        for (memory_space* space : {&device, &host}) {
            void* at = space == &device ? d_now.get() : h_now.data();
            space->generate(at, params, element_type::f32, num_items);
            space->scatter(at, h_indices.data(), h_bits.data(), num_changes);
        }
    }
    std::uint32_t at(std::size_t i) const { return h_now[i]; }
    void set(memory_space& device, std::size_t i, std::uint32_t bits) {
        h_now[i] = bits;
        device.upload(static_cast<std::uint32_t*>(d_now.get()) + i, &bits, 4);
    }
};

// Plants `plants` (position, bits) on both sides, compares both answers with the first planted
// position that differs from what the recipe makes, then puts the elements back.
void check_first_ungenerated(checks& out, memory_space& device, memory_space& host, made_input& input,
                             std::vector<std::pair<std::size_t, std::uint32_t>> plants, const std::string& name) {
    std::vector<std::pair<std::size_t, std::uint32_t>> originals;
    for (const auto& [at, bits] : plants) originals.emplace_back(at, input.at(at));
    std::optional<std::size_t> expected;
    for (const auto& [at, bits] : plants) {
        if (bits != input.at(at)) expected = std::min(at, expected.value_or(at));
        input.set(device, at, bits);
    }
    const std::size_t n = input.h_now.size(), c = input.h_indices.size();
    const auto on_host = host.first_ungenerated(input.h_now.data(), input.params, element_type::f32, n,
                                                input.h_indices.data(), input.h_bits.data(), c);
    const auto on_device = device.first_ungenerated(input.d_now.get(), input.params, element_type::f32, n,
                                                    input.h_indices.data(), input.h_bits.data(), c);
    for (auto it = originals.rbegin(); it != originals.rend(); ++it) input.set(device, it->first, it->second);
    const bool ok = on_device == expected && on_host == expected;
    out.report(
        ok, fmt::format("first_ungenerated {} (elements={}, changes={})", name, n, c),
        fmt::format("expected {}, host {}, device {}", describe(expected), describe(on_host), describe(on_device)));
}

void check_first_ungenerated(checks& out, memory_space& device, memory_space& host, std::size_t num_items,
                             std::size_t num_changes) {
    made_input input(device, host, num_items, num_changes);
    const std::size_t last = num_items - 1, middle = num_items / 2 + 5;
    const auto flipped = [&](std::size_t i) { return input.at(i) ^ 0x10u; };
    check_first_ungenerated(out, device, host, input, {}, "none");
    check_first_ungenerated(out, device, host, input, {{0, flipped(0)}}, "first element");
    check_first_ungenerated(out, device, host, input, {{last, flipped(last)}}, "last element");
    check_first_ungenerated(out, device, host, input, {{middle, flipped(middle)}, {last, flipped(last)}},
                            "middle, then last");
    if (num_changes == 0) return;
    const std::size_t changed = input.h_indices[num_changes / 2];
    const std::uint32_t generated = generated_bits(input.params, element_type::f32, changed);
    // A changed element put back to what the generator makes, or set to a third value.
    check_first_ungenerated(out, device, host, input, {{changed, generated}}, "a change undone");
    check_first_ungenerated(out, device, host, input, {{changed, flipped(changed)}}, "a change altered");
    check_first_ungenerated(out, device, host, input, {{last, flipped(last)}, {changed, generated}},
                            "a change undone before a later difference");
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
        check_first_ungenerated(out, *device, *host, (std::size_t{1} << 22) + 13, 0);
        check_first_ungenerated(out, *device, *host, (std::size_t{1} << 22) + 13, 16);
        check_first_ungenerated(out, *device, *host, std::size_t{100'000'007}, 65536);
        check_poison_watch(out, *device);
        check_other_threads(out, *device);
        check_persisting_l2(out, *device);
    } catch (const std::exception& e) {
        out.report(false, "exception", e.what());
    }
    out.summarize();
    return out.failed() == 0 ? 0 : 1;
}
