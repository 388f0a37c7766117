#include "timing/clock_choice.hpp"

#include "timing/sample_stats.hpp"

#include <fmt/format.h>

#include <algorithm>

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

// What solve's host time may reach, held back: its events' time and one launch, at most as long.
double solve_allowance_ms(const std::vector<clock_reading>& readings) {
    const double event_ms = median_of(readings, &clock_reading::event_ms);
    return event_ms + std::min(event_ms, median_of(readings, &clock_reading::launch_ms));
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
    const double slack_ms =
        held_back ? kHeldRelativeSlack * event_ms + kHeldAbsoluteSlackMs : kRelativeSlack * event_ms + kAbsoluteSlackMs;
    return median_of(readings, &clock_reading::host_ms) > event_ms + slack_ms;
}

std::vector<double> call_times(const std::vector<clock_reading>& readings, bool host_clock) {
    std::vector<double> times;
    times.reserve(readings.size());
    for (const auto& r : readings) times.push_back(host_clock ? std::max(r.event_ms, r.host_ms) : r.event_ms);
    return times;
}

bool may_hold_back(const std::vector<clock_reading>& readings) {
    return median_of(readings, &clock_reading::solve_ms) < solve_allowance_ms(readings) &&
           !work_hid_from_events(readings, true) && !other_threads_worked(readings);
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
    const double launch_us = 1e3 * solve_allowance_ms(readings) - event_us;
    return fmt::format(
        "solve's median host time, {:.1f} us, reached its events' {:.1f} us and one launch's {:.1f} us "
        "over {} calls",
        1e3 * median_of(readings, &clock_reading::solve_ms), event_us, launch_us, readings.size());
}

bool warm_up_stops_holding_back(const std::vector<clock_reading>& readings) {
    return static_cast<int>(readings.size()) >= kReadingsToChooseClock && !may_hold_back(readings);
}

}  // namespace gpujudge
