#pragma once
// Timing solutions on a problem's benchmark tests, with the derived figures: GB/s, GFLOP/s, % of the
// device's measured ceiling, speedups against the problem's two reference points (its library
// baseline and its PyTorch one-liner), and the physical floor: a time below what moving the
// problem's bytes at the ceiling takes (less half of the writes the L2 can hold) is refused, never reported.
#include "compile/compiler.hpp"
#include "history/database.hpp"
#include "references/outputs.hpp"
#include "runner/session.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace gpujudge {

struct judge_context;

// Above the measured ceiling by more than this, a time is impossible. Honest kernels stay within
// a few percent of it (dot_product's vectorized_float4 reached 100.2 % on an H100): 3 % leaves a cache padded
// to just above the floor no room to claim much more than the hardware gives.
constexpr double kFloorMargin = 0.03;

struct bench_figures {
    std::string test;
    verdict result = verdict::skipped;
    std::string message;
    double median_us = 0, mean_us = 0, min_us = 0, max_us = 0, stddev_us = 0, rse = 0;
    int samples = 0;
    double event_median_us = 0, host_median_us = 0;  // both clocks, whichever counted
    double solve_median_us = 0;                      // host time inside solve (launches, Python)
    bool host_clock = false;
    bool blocking = true;
    std::string unblocked_because = {};  // why the run timed launch latency too; empty while held back
    double solve_charge_us = 0;          // held back: solve's host time past its allowance, median call
    double gbps = 0;
    double gflops = 0;  // from the problem's metrics.flops; 0 when it gives none
    double percent_of_peak = 0;
    double speedup = 0;        // baseline median / this median; 0 when there is no baseline
    double speedup_torch = 0;  // the PyTorch one-liner's median / this median; 0 when there is none
    double cycle_us = 0;  // the runner's median share of a call's cycle on the judge's clock (see wall_clock_check)
};

struct bench_entry {
    std::filesystem::path source;
    bool baseline = false;
    bool torch = false;   // the problem's PyTorch one-liner (solutions/<slug>/pytorch.py), what × torch is against
    bool cached = false;  // a reference point's figures from an earlier run on this device
    compile_result compile;
    std::vector<bench_figures> figures;  // one per benchmark test
};

struct bench_report {
    std::string problem;
    std::optional<device_message> device;
    std::optional<std::string> no_device;
    double peak_gbps = 0;
    std::vector<bench_entry> entries;  // the baseline first, then the PyTorch one-liner, when they are there
};

// What every timed library of one run is timed on: the same secret data sets and call order.
struct timed_plan {
    time_job job;
    expected_by_data_set expected;  // the judge's alone: the runner gets `job`
};
// `tests`: the benchmarks to time (positions in spec.tests); empty: every one.
timed_plan plan_timed_runs(const problem_spec& spec, reference_outputs& references, const timed_settings& settings,
                           std::mt19937_64& secret, const std::vector<int>& tests = {});

// The job runner_session::calibrate times on a solve that does nothing, before the library is
// loaded: the same tests as plan_timed_runs's, each on its own (public) data, briefly.
time_job calibration_job(const problem_spec& spec, const timed_settings& settings, const std::vector<int>& tests = {});

// The figures of one timed test (the floor applied: an impossible median becomes impossible_time). The
// floor leaves out half of the written bytes that the device's L2 (`l2_bytes`; 0 on host backends) can hold.
bench_figures figures_of(const problem_spec& spec, const test_report& report, double peak_gbps, double l2_bytes);

// Times a loaded session's library on the plan.
std::vector<bench_figures> time_loaded(runner_session& session, const problem_spec& spec, const timed_plan& plan,
                                       double peak_gbps);

// The problem's baseline's figures: from the history when the device, the baseline, the judge
// and the problem are unchanged since they were measured, else timed now (and kept) on `plan()`,
// which is asked for only then.
using plan_source = std::function<const timed_plan&()>;
std::optional<bench_entry> baseline_entry(const problem_spec& spec, const plan_source& plan, judge_context& context,
                                          history* results, const device_message& device, double peak_gbps);

// The problem's PyTorch one-liner's figures, the second reference point (× torch), kept and timed as
// the baseline's are, with the torch version of the Python found in the key: a new torch, new
// figures. `device_uuid`: the device's, "host" on the host backend. None, and nothing fails, when the
// problem has no solutions/<slug>/pytorch.py or no Python has torch; none with a warning saying why
// when the one-liner does not load or a timed run of it fails.
std::optional<bench_entry> torch_entry(const problem_spec& spec, const plan_source& plan, judge_context& context,
                                       history* results, const std::string& device_uuid, double peak_gbps);

// The problem's PyTorch one-liner, when it has one.
std::optional<std::filesystem::path> torch_source(const std::filesystem::path& home, const std::string& slug);

// The judge's own clock against a submission's reported medians. A timed call's cycle (load,
// call, checks, shipping the outputs), seen from the judge, holds the call and the harness's work
// around it; the baseline's run on the same test, timed before the submission ran, tells the
// harness's share. A median far below what is left of the submission's cycle after that share was
// not the time of the work that produced its outputs (work hidden before the start event, or
// outputs computed apart from the timed call): impossible_time.
void wall_clock_check(const bench_entry& baseline, bench_entry& submission);

// Speedups of every entry, size by size, against the baseline entry (× baseline) and the PyTorch
// one-liner's (× torch), where the report has them.
void add_speedups(bench_report& report);

// The first of an entry's timed tests that did not pass, if any.
const bench_figures* deciding_run(const bench_entry& entry);

// The benchmark test a problem's personal best is kept for: its last (largest) one.
std::optional<std::string> headline_test(const problem_spec& spec);

void to_json(nlohmann::json& out, const bench_figures& f);
void from_json(const nlohmann::json& in, bench_figures& f);

}  // namespace gpujudge
