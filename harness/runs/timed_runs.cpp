#include "runs/timed_runs.hpp"

#include "timing/call_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>

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

// The host clock of the timer's last call: held back, from the release (just after solve returns),
// when the device starts the call's work and sees all of it, and none of solve's host time.
double host_from_release_ms(const call_timer& timer, bool blocking) {
    return blocking ? timer.host_ms() - timer.queue_ms() : timer.host_ms();
}

// What the host clock takes off each reading: an empty call's host time (from the release when held
// back), the median of the last kEmptyCalls, each made right after a timed call in the state that call
// left. Empty calls made anywhere else can be slowed by that state: a solve that switched the device to
// blocking synchronisation after its untimed calls, and back to spinning in its timed ones, had every
// reading taken 13 µs short, measured once before the run (H200). Here the state it leaves after a call
// is the one its own synchronise ran in.
class empty_calls {
public:
    explicit empty_calls(memory_space& space) : space_(space), timer_(space.make_timer()) {}

    // `watch`: the timed call's, whose outputs the empty call samples as that call did its own (the
    // sample is read inside the host clock).
    void measure(bool blocking, const poison_watch& watch) {
        timer_->set_blocking(blocking);
        timer_->watch(watch);
        call_between_hooks(space_, *timer_, [] {});
        if (recent_.size() == kEmptyCalls) recent_.erase(recent_.begin());
        recent_.push_back(host_from_release_ms(*timer_, blocking));
    }
    void clear() { recent_.clear(); }
    double overhead_ms() const { return recent_.empty() ? 0 : summarize(recent_).median; }

private:
    static constexpr std::size_t kEmptyCalls = 63;
    memory_space& space_;
    std::unique_ptr<call_timer> timer_;
    std::vector<double> recent_;
};

clock_reading read_clocks(const call_timer& timer, double overhead_ms, bool blocking) {
    clock_reading reading;
    reading.event_ms = timer.event_ms();
    // Read around solve alone, not as the call's queueing less an empty call's: between timed calls the
    // harness ships 10-400 MB of outputs and waits on the device, which leaves the CPU's caches cold,
    // and the hold's launch and the event records then took 10-12 µs more than in the empty calls
    // measured back to back (H100), time that was counted as solve's.
    reading.solve_ms = timer.solve_ms();
    reading.launch_ms = timer.launch_ms();
    reading.other_threads_ms = timer.other_threads_ms();
    reading.host_ms = host_from_release_ms(timer, blocking) - overhead_ms;
    return reading;
}

// One timed run: its buffer sets, the secret draws, the timer and where it stands (warming up or
// sampling, calls held back or not).
class timed_run {
public:
    timed_run(const problem_spec& spec, memory_space& space, const solve_function& solve, const test_spec& test,
              const std::vector<input_set>& data_sets, const timed_settings& settings, std::uint64_t order_seed,
              call_listener& announcer, output_sink& judge)
        : spec_(spec),
          space_(space),
          solve_(solve),
          test_(test),
          data_sets_(data_sets),
          settings_(settings),
          slots_(make_slots(spec, space, test, settings)),
          judge_(judge),
          data_order_(data_set_order(order_seed, data_sets.size())),
          slot_order_(buffer_set_order(order_seed, slots_.size())),
          empties_(space),
          timer_(blocking_timer(space)),
          listener_(*timer_, announcer) {}

    timed_result run() {
        for (int call = 0;; ++call) {
            if (std::optional<call_outcome> failure = judged_call(call)) {
                result_.outcome = std::move(*failure);
                return std::move(result_);
            }
            // solve waited on the device while its work was held back: it synchronises. Its first call
            // may, once (scratch allocation, constants); after that the run times it unblocked, all of it.
            // So does a hold that never took every SM.
            if (const std::string failure = timer_->hold_failure(); result_.blocking && !failure.empty() && call > 0) {
                restart_unblocked(fmt::format("call {} {}", call + 1, failure));
                continue;
            }
            const clock_reading reading = read_clocks(*timer_, empties_.overhead_ms(), result_.blocking);
            if (warming_up_) {
                warm_up(reading);
                continue;
            }
            if (sampled_enough(reading)) break;
        }
        result_.host_overhead_ms = empties_.overhead_ms();
        result_.host_clock = work_hid_from_events(result_.readings, result_.blocking);
        if (result_.blocking) result_.solve_charge_ms = solve_charge_ms(result_.readings);
        result_.stats = summarize(sample_times(result_.host_clock));
        return std::move(result_);
    }

private:
    static std::vector<std::unique_ptr<buffer_set>> make_slots(const problem_spec& spec, memory_space& space,
                                                               const test_spec& test, const timed_settings& settings) {
        std::vector<std::unique_ptr<buffer_set>> slots;
        for (int s = 0; s < settings.slots; ++s)
            slots.push_back(std::make_unique<buffer_set>(spec, space, test.scalars));
        return slots;
    }

    static std::unique_ptr<call_timer> blocking_timer(memory_space& space) {
        auto timer = space.make_timer();
        timer->set_blocking(true);
        return timer;
    }

    static double seconds_since(std::chrono::steady_clock::time_point start) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    // One call on a drawn data set in a drawn buffer set, from cold caches, its buffers checked and
    // its outputs shipped to the judge, which compares them and says whether the run goes on.
    std::optional<call_outcome> judged_call(int call) {
        const std::size_t d = data_order_.next(), s = slot_order_.next();
        const input_set& data = data_sets_[d];
        buffer_set& slot = *slots_[s];
        slot.load(data);
        space_.flush_caches();
        const poison_watch watch = slot.poisoned_outputs();
        timer_->watch(watch);
        call_outcome outcome = call_solve(solve_, slot, test_.scalars, space_, listener_);
        if (outcome.result == verdict::accepted) empties_.measure(result_.blocking, watch);
        if (const auto early = timer_->written_before_call(); early && outcome.result == verdict::accepted)
            outcome = slot.written_before_call(*early, test_.scalars);
        if (outcome.result == verdict::accepted) outcome = check_buffers(spec_, slot, test_.scalars, data);
        if (outcome.result == verdict::accepted && !judge_.ship(slot)) outcome = stopped_by_judge();
        if (const auto late = timer_->written_after_call(); late && outcome.result == verdict::accepted)
            outcome = slot.written_after_call(*late, test_.scalars);
        if (outcome.result == verdict::accepted) return std::nullopt;
        outcome.message = fmt::format("timed run {} (data set {}, buffer set {}): {}", call + 1, d, s, outcome.message);
        return outcome;
    }

    // Stops holding calls back for the rest of the run (launch latency and solve's host time are
    // then timed) and starts it over: every sample of a run is timed the same way.
    void restart_unblocked(std::string why) {
        result_.blocking = false;
        result_.unblocked_because = std::move(why);
        timer_->set_blocking(false);
        empties_.clear();
        result_.readings.clear();
        warming_up_ = true;
        warmup_calls_ = 0;
        warmup_start_ = std::chrono::steady_clock::now();
    }

    void warm_up(const clock_reading& reading) {
        if (warmup_calls_ == 0) warmup_readings_.clear();
        warmup_readings_.push_back(reading);
        warming_up_ = ++warmup_calls_ < settings_.warmup || seconds_since(warmup_start_) < settings_.warmup_s;
        if (!warming_up_ && result_.blocking && warm_up_stops_holding_back(warmup_readings_))
            restart_unblocked("warm-up: " + why_not_held_back(warmup_readings_));
        sampling_start_ = std::chrono::steady_clock::now();
    }

    // Keeps the sample; true once the run has enough of them.
    bool sampled_enough(const clock_reading& reading) {
        result_.readings.push_back(reading);
        const int n = static_cast<int>(result_.readings.size());
        const bool full = n >= settings_.max_samples;
        if (!full && n % kReadingsToChooseClock != 0) return false;  // the stop test sorts every sample
        const double elapsed = seconds_since(sampling_start_);
        // A slow solution stops at the budget with fewer samples than asked, but never under 16.
        if (!full && n < settings_.min_samples && elapsed <= settings_.budget_s) return false;
        if (!full && elapsed < std::min(settings_.min_time_s, settings_.budget_s)) return false;
        if (result_.blocking && !may_hold_back(result_.readings)) {  // it changed its ways after warm-up
            restart_unblocked(fmt::format("after {} samples: {}", n, why_not_held_back(result_.readings)));
            return false;
        }
        const bool host_clock = work_hid_from_events(result_.readings, result_.blocking);
        return full || elapsed > settings_.budget_s || summarize(sample_times(host_clock)).rse < settings_.target_rse;
    }

    // Held back, a call counts with solve's host time past its allowance, and one that broke a rule
    // with all the host work it may have hidden.
    std::vector<double> sample_times(bool host_clock) const {
        return result_.blocking ? held_call_times(result_.readings) : call_times(result_.readings, host_clock);
    }

    const problem_spec& spec_;
    memory_space& space_;
    const solve_function& solve_;
    const test_spec& test_;
    const std::vector<input_set>& data_sets_;
    const timed_settings& settings_;
    std::vector<std::unique_ptr<buffer_set>> slots_;
    output_sink& judge_;
    unrepeated_draws data_order_, slot_order_;
    empty_calls empties_;
    std::unique_ptr<call_timer> timer_;
    timed_call_listener listener_;
    timed_result result_;
    bool warming_up_ = true;
    int warmup_calls_ = 0;
    std::vector<clock_reading> warmup_readings_;
    std::chrono::steady_clock::time_point warmup_start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point sampling_start_ = warmup_start_;
};

}  // namespace

timed_result run_timed(const problem_spec& spec, memory_space& space, const solve_function& solve,
                       const test_spec& test, const std::vector<input_set>& data_sets, const timed_settings& settings,
                       std::uint64_t order_seed, call_listener& announcer, output_sink& judge) {
    return timed_run(spec, space, solve, test, data_sets, settings, order_seed, announcer, judge).run();
}

}  // namespace gpujudge
