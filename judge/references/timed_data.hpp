#pragma once
// The data sets of a test's timed runs: the test's own data, and variants of it that differ at a
// few secret positions, drawn from the same generators, each chosen so that no other data set's
// reference output passes for its own. A cache keyed on a sample of the input then replays
// another data set's answer (wrong_answer); one keyed on the whole input must read all of it.
#include "references/outputs.hpp"
#include "runner/protocol.hpp"

#include <random>
#include <vector>

namespace gpujudge {

// A timed test's data sets (what the runner is told) and their expected outputs (what the judge
// keeps to itself), in the same order.
struct timed_test_data {
    std::vector<timed_data_job> data_sets;
    std::vector<named_arrays> expected;
};

// `count` data sets for each of `tests` (the first is the test's own), their references computed in
// one job; `secret` draws positions and values.
std::vector<timed_test_data> choose_timed_data(const problem_spec& spec, const std::vector<int>& tests, int count,
                                               reference_outputs& references, std::mt19937_64& secret);

// A generator seeded from the kernel's random source: each run's secret positions and order.
std::mt19937_64 fresh_secret();

// The test's own data set: its seed, nothing changed.
data_set_spec own_data(const test_spec& test);

}  // namespace gpujudge
