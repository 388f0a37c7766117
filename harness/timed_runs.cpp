#include "timed_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>

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

// What an empty call costs on the host clock (medians): holding back and releasing, event
// records, synchronise and clock reads.
struct empty_call {
    double host_ms = 0, queue_ms = 0;
};

empty_call measure_empty_call(memory_space& space, bool blocking) {
    std::vector<double> host, queue;
    auto timer = space.make_timer();
    timer->set_blocking(blocking);
    for (int i = 0; i < 21; ++i) {
        call_between_hooks(space, *timer, [] {});
        host.push_back(timer->host_ms());
        queue.push_back(timer->queue_ms());
    }
    return {summarize(host).median, summarize(queue).median};
}

clock_reading read_clocks(const call_timer& timer, const empty_call& empty, bool blocking) {
    clock_reading reading;
    reading.event_ms = timer.event_ms();
    reading.solve_ms = timer.queue_ms() - empty.queue_ms;
    // Held back, the device starts the call's work when solve returns: the host clock from there on
    // sees all of it, and none of solve's host time.
    reading.host_ms = blocking ? (timer.host_ms() - timer.queue_ms()) - (empty.host_ms - empty.queue_ms)
                               : timer.host_ms() - empty.host_ms;
    return reading;
}

// Draws indices in [0, count), never the same twice in a row (when count > 1).
class unrepeated_draws {
public:
    unrepeated_draws(std::uint64_t seed, std::size_t count) : rng_(seed), count_(count) {}
    std::size_t next() {
        if (count_ > 1) {
            const std::size_t step = 1 + std::uniform_int_distribution<std::size_t>(0, count_ - 2)(rng_);
            last_ = (last_ + step) % count_;
        }
        return last_;
    }

private:
    std::mt19937_64 rng_;
    std::size_t count_;
    std::size_t last_ = 0;
};

}  // namespace

timed_result run_timed(const problem_spec& spec, memory_space& space, const c_function& solve, const test_spec& test,
                       const std::vector<timed_data_set>& data_sets, const timed_settings& settings,
                       std::uint64_t order_seed, call_listener& announcer) {
    timed_result result;
    std::vector<std::unique_ptr<buffer_set>> slots;
    for (int s = 0; s < settings.slots; ++s)
        slots.push_back(std::make_unique<buffer_set>(spec, space, test.scalars));
    unrepeated_draws data_order(order_seed, data_sets.size());
    unrepeated_draws slot_order(order_seed ^ 0x9E3779B97F4A7C15ull, slots.size());

    empty_call empty = measure_empty_call(space, true);
    auto timer = space.make_timer();
    timer->set_blocking(true);
    timed_call_listener listener(*timer, announcer);
    auto warmup_start = std::chrono::steady_clock::now();
    auto sampling_start = warmup_start;
    bool warming_up = true;
    int warmup_calls = 0;
    std::vector<clock_reading> warmup_readings;
    // Stops holding calls back for the rest of the run (launch latency and solve's host time are
    // then timed) and starts it over: every sample of a run is timed the same way.
    const auto restart_unblocked = [&] {
        result.blocking = false;
        timer->set_blocking(false);
        empty = measure_empty_call(space, false);
        result.readings.clear();
        warming_up = true;
        warmup_calls = 0;
        warmup_start = std::chrono::steady_clock::now();
    };
    for (int call = 0;; ++call) {
        const std::size_t d = data_order.next(), s = slot_order.next();
        const timed_data_set& data = data_sets[d];
        buffer_set& slot = *slots[s];
        slot.load_from(data.inputs.sources());
        space.flush_caches();
        call_outcome outcome = call_solve(solve, slot, test.scalars, space, listener);
        if (outcome.result == verdict::accepted)
            outcome = check_call(spec, space, slot, test.scalars, data.inputs.sources(), data.expected);
        if (outcome.result != verdict::accepted) {
            outcome.message =
                fmt::format("timed run {} (data set {}, buffer set {}): {}", call + 1, d, s, outcome.message);
            result.outcome = std::move(outcome);
            return result;
        }
        // solve waited on the device while its work was held back: it synchronises. Its first call
        // may, once (scratch allocation, constants); after that the run times it unblocked, all of it.
        if (result.blocking && timer->blocking_timed_out() && call > 0) {
            restart_unblocked();
            continue;
        }
        const clock_reading reading = read_clocks(*timer, empty, result.blocking);
        if (warming_up) {
            if (warmup_calls == 0) warmup_readings.clear();
            warmup_readings.push_back(reading);
            const double warm_s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - warmup_start).count();
            warming_up = ++warmup_calls < settings.warmup || warm_s < settings.warmup_s;
            if (!warming_up && result.blocking && !may_hold_back(warmup_readings)) restart_unblocked();
            sampling_start = std::chrono::steady_clock::now();
            continue;
        }
        result.readings.push_back(reading);
        const int n = static_cast<int>(result.readings.size());
        const bool full = n >= settings.max_samples;
        if (!full && n % 16 != 0) continue;  // the stop test sorts every sample
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling_start).count();
        // A slow solution stops at the budget with fewer samples than asked, but never under 16.
        if (!full && n < settings.min_samples && elapsed <= settings.budget_s) continue;
        if (!full && elapsed < std::min(settings.min_time_s, settings.budget_s)) continue;
        if (result.blocking && !may_hold_back(result.readings)) {  // it changed its ways after warm-up
            restart_unblocked();
            continue;
        }
        const bool host_clock = work_hid_from_events(result.readings);
        if (full || elapsed > settings.budget_s ||
            summarize(call_times(result.readings, host_clock)).rse < settings.target_rse)
            break;
    }
    result.host_overhead_ms = empty.host_ms;
    result.host_clock = work_hid_from_events(result.readings);
    result.stats = summarize(call_times(result.readings, result.host_clock));
    return result;
}

}  // namespace gpujudge
