#pragma once
// Timing solutions of a problem on its benchmark tests, with the derived figures: GB/s, % of the
// device's measured ceiling, and speedup against the problem's baseline timed in the same run.
#include "history.hpp"
#include "submission.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct bench_figures {
    std::string test;
    verdict result = verdict::skipped;
    std::string message;
    double median_us = 0, mean_us = 0, min_us = 0, max_us = 0, stddev_us = 0, rse = 0;
    int samples = 0;
    double event_median_us = 0, host_median_us = 0;  // both clocks, whichever counted
    bool host_clock = false;
    bool blocking = true;
    double gbps = 0;
    double percent_of_peak = 0;
    double speedup = 0;  // baseline median / this median; 0 when there is no baseline
};

struct bench_entry {
    std::filesystem::path source;
    bool baseline = false;
    compile_result compile;
    std::vector<bench_figures> figures;  // one per benchmark test
};

struct bench_report {
    std::string problem;
    nlohmann::json device;
    std::optional<std::string> no_device;
    double peak_gbps = 0;
    std::vector<bench_entry> entries;  // the baseline first, when there is one
};

struct bench_options {
    nlohmann::json timing;       // timed_settings fields
    std::string origin = "bench";  // recorded in the history
};

// Times `sources` (and the problem's baseline) on every benchmark test of `spec`.
bench_report bench_problem(const problem_spec& spec, const std::vector<std::filesystem::path>& sources,
                           judge_context& context, history& results, const bench_options& options);

// The first of an entry's timed tests that did not pass, if any.
const bench_figures* first_failure(const bench_entry& entry);

// The markdown table: solution × size with median µs, GB/s, % of peak and × baseline.
std::string bench_markdown(const bench_report& report);
nlohmann::json bench_json(const bench_report& report);

// The benchmark test a problem's personal best is kept for: its last (largest) one.
std::optional<std::string> headline_test(const problem_spec& spec);

}  // namespace gpujudge
