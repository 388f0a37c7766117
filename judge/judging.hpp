#pragma once
// Runs a compiled submission over a problem's tests in runner processes, turning every way a
// runner can end (a result, a crash, exit(), a hang) into a verdict per test.
#include "problem_spec.hpp"
#include "runner_job.hpp"
#include "verdict.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct test_report {
    int index = 0;
    std::string name;
    test_kind kind = test_kind::functional;
    verdict result = verdict::skipped;
    std::string message;
    double wall_ms = 0;
    nlohmann::json stats;  // timed runs only: count, median_ms, mean_ms, min_ms, max_ms, stddev_ms, rse
    bool host_clock = false;  // the timed runs' work hid from the events (other streams): the host clock timed them
    bool blocking = true;     // calls were held back until queued; false: timed unblocked, launch latency included
};

struct runner_settings {
    std::filesystem::path runner_exe;
    runner_backend backend = runner_backend::device;
    double harness_limit_s = 600;  // preparing and checking one test, outside solve
    double call_slack_ms = 250;    // scheduling and message latency on top of the time limit
};

struct judge_run {
    std::optional<std::string> no_device;  // set when the runner found no GPU
    nlohmann::json device;                 // the runner's "device" message
    std::optional<double> peak_gbps;       // bench: the measured memory ceiling (see peak_bandwidth.hpp)
    std::vector<test_report> tests;
    std::string program_output;            // tail of what the runner and submission printed
};

// Judges the tests once each (runner_mode::judge), or as timed runs (runner_mode::bench, with
// `bench` holding timed_settings fields and "measure_peak").
judge_run run_tests(const problem_spec& spec, const std::filesystem::path& solution,
                    const std::filesystem::path& reference, const std::vector<int>& tests,
                    const runner_settings& settings, runner_mode mode = runner_mode::judge,
                    const nlohmann::json& bench = {});

// Starts a runner in probe mode: the device's description, or why there is none.
judge_run probe_device(const runner_settings& settings);

// The submission's verdict: that of its first test that did not pass.
verdict overall_verdict(const std::vector<test_report>& tests);

}  // namespace gpujudge
