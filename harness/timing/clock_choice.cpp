#include "timing/clock_choice.hpp"

#include "timing/sample_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpujudge {

namespace {

constexpr double kRelativeSlack = 0.05, kHeldRelativeSlack = 0.02;
constexpr double kAbsoluteSlackMs = 0.005, kHeldAbsoluteSlackMs = 0.001;
constexpr double kOtherThreadsSlackMs = 0.002;

// A median, as for the other rules: honest softmax runs on an H200 read a mean of 2.1-2.6 µs per call
// (the driver's threads now and then, there with a process-clock reading), their median nothing.
bool other_threads_worked(const std::vector<clock_reading>& readings) {
    return median_of(readings, &clock_reading::other_threads_ms) > kOtherThreadsSlackMs;
}

// What solve's host time may reach, held back, before the rest is charged: its events' time and one
// launch. Not at most the events' time again: a pad that lengthens a tiny kernel would then lengthen
// its allowance twice as fast, and read faster. The launch is the hold's, in the submission's process:
// driver state it builds up slows its own launches as much (16384 blocking streams on an H200: the
// legacy stream's launch 11.5 µs, one of those streams' 14.9, against 4.7 with none).
double solve_allowance_ms(const std::vector<clock_reading>& readings) {
    return median_of(readings, &clock_reading::event_ms) + median_of(readings, &clock_reading::launch_ms);
}

// Held back, how far the host clock may read past the events.
double held_slack_ms(double event_ms) {
    return kHeldRelativeSlack * event_ms + kHeldAbsoluteSlackMs;
}

// The first rule of held-back calls that a call broke, each call judged by both at once: each rule's
// median alone would let a run break each rule in a different minority of its calls. The host clock is
// held to the call's own events: the run's median would leave a long kernel's slower calls outside the
// slack, and let a fast call hide work up to the median.
enum class broken_rule { none, other_threads, host_clock };

broken_rule rule_broken(const clock_reading& r) {
    if (r.other_threads_ms > kOtherThreadsSlackMs) return broken_rule::other_threads;
    if (r.host_ms > r.event_ms + held_slack_ms(r.event_ms)) return broken_rule::host_clock;
    return broken_rule::none;
}

struct broken_calls {
    int other_threads = 0, host_clock = 0;  // calls, by the first rule each broke
    int unknown = 0;  // of those by other threads, the calls whose reading could not be taken (infinite)
    int total() const { return other_threads + host_clock; }
};

broken_calls calls_broken(const std::vector<clock_reading>& readings) {
    broken_calls broken;
    for (const auto& r : readings) {
        switch (rule_broken(r)) {
            case broken_rule::other_threads:
                ++broken.other_threads;
                if (!std::isfinite(r.other_threads_ms)) ++broken.unknown;
                break;
            case broken_rule::host_clock:
                ++broken.host_clock;
                break;
            case broken_rule::none:
                break;
        }
    }
    return broken;
}

// Each call's host time in solve past the run's allowance.
std::vector<double> solve_charges(const std::vector<clock_reading>& readings) {
    const double allowance_ms = solve_allowance_ms(readings);
    std::vector<double> charges;
    charges.reserve(readings.size());
    for (const auto& r : readings) charges.push_back(std::max(0.0, r.solve_ms - allowance_ms));
    return charges;
}

}  // namespace

double median_of(const std::vector<clock_reading>& readings, double clock_reading::*clock) {
    std::vector<double> values;
    values.reserve(readings.size());
    for (const auto& r : readings) values.push_back(r.*clock);
    return summarize(std::move(values)).median;
}

bool work_hid_from_events(const std::vector<clock_reading>& readings, bool held_back) {
    const double event_ms = median_of(readings, &clock_reading::event_ms);
    const double slack_ms = held_back ? held_slack_ms(event_ms) : kRelativeSlack * event_ms + kAbsoluteSlackMs;
    return median_of(readings, &clock_reading::host_ms) > event_ms + slack_ms;
}

std::vector<double> call_times(const std::vector<clock_reading>& readings, bool host_clock) {
    std::vector<double> times;
    times.reserve(readings.size());
    for (const auto& r : readings) times.push_back(host_clock ? std::max(r.event_ms, r.host_ms) : r.event_ms);
    return times;
}

std::vector<double> held_call_times(const std::vector<clock_reading>& readings) {
    const std::vector<double> charges = solve_charges(readings);
    std::vector<double> times;
    times.reserve(readings.size());
    for (std::size_t i = 0; i < readings.size(); ++i) {
        const clock_reading& r = readings[i];
        const double hidden_ms = r.solve_ms + r.other_threads_ms + std::max(0.0, r.host_ms - r.event_ms);
        times.push_back(rule_broken(r) == broken_rule::none ? r.event_ms + charges[i] : r.event_ms + hidden_ms);
    }
    return times;
}

double solve_charge_ms(const std::vector<clock_reading>& readings) {
    return summarize(solve_charges(readings)).median;
}

bool may_hold_back(const std::vector<clock_reading>& readings) {
    const broken_calls broken = calls_broken(readings);
    return broken.unknown == 0 && 2 * broken.total() < static_cast<int>(readings.size());
}

std::string why_not_held_back(const std::vector<clock_reading>& readings) {
    const double event_us = 1e3 * median_of(readings, &clock_reading::event_ms);
    if (other_threads_worked(readings))
        return fmt::format(
            "the runner's other threads used a median of {:.1f} us of CPU per call over {} calls: host work "
            "beside solve (a host function?)",
            1e3 * median_of(readings, &clock_reading::other_threads_ms), readings.size());
    if (work_hid_from_events(readings, true))
        return fmt::format("the host clock's median, {:.1f} us, exceeded the events' {:.1f} us over {} calls",
                           1e3 * median_of(readings, &clock_reading::host_ms), event_us, readings.size());
    const broken_calls broken = calls_broken(readings);
    if (broken.unknown > 0)
        return fmt::format("the runner's other threads could not be read in {} of {} calls", broken.unknown,
                           readings.size());
    return fmt::format(
        "{} of {} calls broke a rule of held-back calls, though no rule's median did: {} by other threads' CPU, "
        "{} by the host clock",
        broken.total(), readings.size(), broken.other_threads, broken.host_clock);
}

bool warm_up_stops_holding_back(const std::vector<clock_reading>& readings) {
    return static_cast<int>(readings.size()) >= kReadingsToChooseClock && !may_hold_back(readings);
}

}  // namespace gpujudge
