#include "timed_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

namespace gpujudge {

namespace {

// Forwards each hook to the timer and to the runner's announcer, the timer innermost.
class timed_call_listener final : public call_listener {
public:
    timed_call_listener(call_timer& timer, call_listener& announcer) : timer_(timer), announcer_(announcer) {}
    void before_call() override {
        announcer_.before_call();
        timer_.before_call();
    }
    void after_return() override { timer_.after_return(); }
    void after_finish() override {
        timer_.after_finish();
        announcer_.after_finish();
    }

private:
    call_timer& timer_;
    call_listener& announcer_;
};

// What an empty call costs on the host clock: launch-free synchronise and clock reads.
double measure_host_overhead(memory_space& space) {
    std::vector<double> samples;
    auto timer = space.make_timer();
    for (int i = 0; i < 21; ++i) {
        timer->before_call();
        timer->after_return();
        space.finish_call();
        timer->after_finish();
        samples.push_back(timer->host_ms());
    }
    return summarize(samples).median;
}

// Data sets after the first share its first and last elements, so that a cache keyed on a few
// values at either end replays another data set's answer.
constexpr std::size_t kSharedEnds = 1024;

void share_ends(const test_data& first, test_data& data) {
    for (auto& [name, values] : data.inputs) {
        const host_array& from = first.inputs.at(name);
        const std::size_t count = std::min(kSharedEnds, values.size() / 4);
        const std::size_t tail = values.size() - count;
        std::memcpy(values.data(), from.data(), count * 4);
        std::memcpy(static_cast<char*>(values.data()) + tail * 4, static_cast<const char*>(from.data()) + tail * 4,
                    count * 4);
    }
}

struct data_set {
    std::vector<guarded_buffer> inputs;
    std::map<std::string, const void*> sources;
    test_data expected;  // inputs dropped once on the device: only the reference outputs stay
};

}  // namespace

std::uint64_t data_set_seed(const test_spec& test, int index) {
    return test.seed * 1000003ull + 0x5EED0000ull + static_cast<std::uint64_t>(index);
}

timed_result run_timed(const problem_spec& spec, memory_space& space, const c_function& solve,
                       const c_function& reference, const test_spec& test, const timed_settings& settings,
                       call_listener& announcer) {
    timed_result result;
    std::vector<data_set> pools(static_cast<std::size_t>(settings.data_sets));
    test_data first;
    for (int d = 0; d < settings.data_sets; ++d) {
        data_set& pool = pools[static_cast<std::size_t>(d)];
        pool.expected = generate_inputs(spec, test, data_set_seed(test, d));
        if (d == 0) first.inputs = pool.expected.inputs;
        else share_ends(first, pool.expected);
        pool.expected.expected = run_on_host(spec, pool.expected, reference);
        pool.inputs.reserve(pool.expected.inputs.size());
        for (auto& [name, values] : pool.expected.inputs) {
            pool.inputs.emplace_back(space, values.size_bytes());
            space.upload(pool.inputs.back().data(), values.data(), values.size_bytes());
            pool.sources[name] = pool.inputs.back().data();
        }
        pool.expected.inputs.clear();
    }
    first.inputs.clear();
    std::vector<std::unique_ptr<buffer_set>> slots;
    for (int s = 0; s < settings.slots; ++s)
        slots.push_back(std::make_unique<buffer_set>(spec, space, test.scalars));

    result.host_overhead_ms = measure_host_overhead(space);
    auto timer = space.make_timer();
    timed_call_listener listener(*timer, announcer);
    std::vector<double> times;
    const auto warmup_start = std::chrono::steady_clock::now();
    auto sampling_start = warmup_start;
    bool warming_up = true;
    for (int call = 0;; ++call) {
        const data_set& pool = pools[static_cast<std::size_t>(call % settings.data_sets)];
        buffer_set& slot = *slots[static_cast<std::size_t>(call % settings.slots)];
        slot.load_from(pool.sources);
        space.flush_caches();
        call_outcome outcome = call_solve(solve, slot, test.scalars, space, listener);
        if (outcome.result == verdict::accepted) outcome = check_call(spec, slot, pool.expected);
        if (outcome.result != verdict::accepted) {
            outcome.message = fmt::format("timed run {} (data set {}, buffer set {}): {}", call + 1,
                                          call % settings.data_sets, call % settings.slots, outcome.message);
            result.outcome = std::move(outcome);
            return result;
        }
        if (warming_up) {
            const double warm_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - warmup_start).count();
            warming_up = call + 1 < settings.warmup || warm_s < settings.warmup_s;
            sampling_start = std::chrono::steady_clock::now();
            continue;
        }
        timed_sample sample{timer->event_ms(), timer->event_ms(), timer->host_ms(), false};
        // Work left running on other streams is invisible to the events, not to the host clock.
        const double host_work_ms = sample.host_ms - result.host_overhead_ms;
        if (host_work_ms > 1.1 * sample.event_ms + 0.005) {
            sample.ms = host_work_ms;
            sample.host_clock = result.hidden_work = true;
        }
        result.samples.push_back(sample);
        times.push_back(sample.ms);
        const int n = static_cast<int>(times.size());
        if (n < settings.min_samples) continue;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling_start).count();
        if (n >= settings.max_samples || elapsed > settings.budget_s || summarize(times).rse < settings.target_rse)
            break;
    }
    result.stats = summarize(times);
    return result;
}

}  // namespace gpujudge
