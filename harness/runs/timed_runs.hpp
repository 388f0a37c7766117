#pragma once
// Timed runs that are judged runs: every call gets other data in other buffers than the call
// before it, in an order the submission cannot predict, starts with cold caches, and has its
// outputs verified by the judge — so answers cached by pointer, by size, by call count or by a
// sample of the input get wrong_answer instead of a time.
#include "buffers/data_set.hpp"
#include "calls/call_listener.hpp"
#include "runs/judged_call.hpp"
#include "timing/clock_choice.hpp"
#include "timing/sample_stats.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpujudge {

struct timed_settings {
    int data_sets = 5;      // distinct inputs, each with its reference output (chosen by the judge)
    int slots = 3;          // distinct buffer sets, drawn independently of the data
    int warmup = 3;         // calls verified, not timed...
    double warmup_s = 0.3;  // ...and at least this long: clocks ramp up after the idle of data generation
    // The same for each later size of one run: the GPU has just been busy timing the one before and
    // generating this one's data, so its clocks are up; the calls still warm this size's buffers.
    double later_warmup_s = 0.05;
    int min_samples = 50;  // unless budget_s runs out first (a slow solution); 16 at least
    int max_samples = 20000;
    double min_time_s = 1.0;    // sampling time, after warm-up: a short disturbance then weighs little
    double budget_s = 3.0;      // ...and at most this long
    double target_rse = 0.005;  // stop between the two once the mean is this well known
};

struct timed_result {
    call_outcome outcome;  // accepted, or why a timed run failed
    std::vector<clock_reading> readings;
    sample_stats stats;  // of the times that count (see clock_choice.hpp)
    // Taken off host readings: empty calls made after timed ones (from the release, held back).
    double host_overhead_ms = 0;
    bool host_clock = false;  // work hid from the events, so the host clock timed the run
    // Calls were held back until queued, so launch latency was not timed. False when solve synchronises,
    // or work hid from the events or ran on another thread (see clock_choice.hpp).
    bool blocking = true;
    // Held back, the median call's charge for solve's host time past its events and one launch.
    double solve_charge_ms = 0;
    std::string unblocked_because;  // why calls stopped being held back, with the figures that decided it
};

// `order_seed` draws which data set (inputs in the run's memory space) and buffer set each call
// gets: never the same as the call before, otherwise unpredictable (call_order.hpp). Every call's
// outputs go to `judge`, which alone holds the expected ones; it can stop the run.
timed_result run_timed(const problem_spec& spec, memory_space& space, const solve_function& solve,
                       const test_spec& test, const std::vector<input_set>& data_sets, const timed_settings& settings,
                       std::uint64_t order_seed, call_listener& announcer, output_sink& judge);

}  // namespace gpujudge
