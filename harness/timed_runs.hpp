#pragma once
// Timed runs that are judged runs: every call gets other data in other buffers than the call
// before it, starts with cold caches, and has its outputs verified — so answers cached by pointer,
// by size or by a few input values get wrong_answer instead of a time.
#include "call_listener.hpp"
#include "judged_call.hpp"
#include "sample_stats.hpp"

#include <cstdint>
#include <vector>

namespace gpujudge {

struct timed_settings {
    int data_sets = 5;  // distinct inputs, each with its reference output
    int slots = 3;      // distinct buffer sets; coprime with data_sets so pointers and data never pair up
    int warmup = 3;           // calls verified, not timed...
    double warmup_s = 0.3;    // ...and at least this long: clocks ramp up after the idle of data generation
    int min_samples = 50;
    int max_samples = 2000;
    double budget_s = 2.0;      // sampling time, after warm-up
    double target_rse = 0.005;  // stop once the mean is this well known
};

struct timed_sample {
    double ms = 0;        // what counts: the event time, or the host time when work hid from the events
    double event_ms = 0;
    double host_ms = 0;
    bool host_clock = false;
};

struct timed_result {
    call_outcome outcome;  // accepted, or why a timed run failed
    std::vector<timed_sample> samples;
    sample_stats stats;
    double host_overhead_ms = 0;  // the host clock's cost of an empty call and synchronise
    bool hidden_work = false;     // some samples were timed by the host clock
};

// The seed of data set `index` of a test: distinct from the test's own and from each other.
std::uint64_t data_set_seed(const test_spec& test, int index);

timed_result run_timed(const problem_spec& spec, memory_space& space, const c_function& solve,
                       const c_function& reference, const test_spec& test, const timed_settings& settings,
                       call_listener& announcer);

}  // namespace gpujudge
