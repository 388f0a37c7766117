#pragma once
// `profile`: one benchmark of a submission under Nsight Compute. First the submission is judged
// and timed on that test as submit does (ncu serialises kernels and replays each many times, so
// the real time and the gaps between kernels come from this unprofiled run); then a runner behind
// ncu calls solve once to warm up and once more between cudaProfilerStart and Stop, so that
// `ncu --profile-from-start off` collects solve's kernels and none of the harness's (inputs,
// poison, guards, checks). The report is imported as CSV and analysed (profile/analysis.hpp).
#include "judging/submission.hpp"
#include "profile/analysis.hpp"
#include "profile/kernels.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// ncu profiles this many of solve's kernels at most; later ones run unprofiled.
constexpr int kMaxProfiledKernels = 32;

struct profile_result {
    judgement judged;  // the unprofiled run: compile, device, the test and its timed run
    int test = 0;      // position in spec.tests
    verdict overall = verdict::accepted;
    std::string reason;  // why, when not accepted
    // Once the unprofiled run passed:
    double time_us = 0;                    // its median
    double peak_gbps = 0;                  // the device's measured ceiling (0: unknown)
    double bytes = 0;                      // metrics.bytes at this size
    std::vector<std::string> ncu_command;  // what the runner was started behind, and the runner
    std::filesystem::path report;          // the .ncu-rep, kept for Nsight Compute's GUI
    std::vector<kernel_profile> kernels;
    roofline line;
    std::vector<suggestion> suggestions;

    bool profiled() const { return overall == verdict::accepted && !ncu_command.empty(); }
    bool capped() const { return static_cast<int>(kernels.size()) >= kMaxProfiledKernels; }
};

// The benchmark to profile: the one named, else the largest (most metrics.bytes; the last of
// equals). Throws usage_error for a name that is no benchmark of the problem.
int profiled_test(const problem_spec& spec, const std::string& name);

// ncu's command line (before the runner's path) that writes `report`.
std::vector<std::string> ncu_command(const std::filesystem::path& ncu, const std::filesystem::path& report);

// How long the call under ncu may take: ncu replays each kernel once per pass (18 for the sections
// collected), so 30 times the problem's limit and a minute; $GPUJUDGE_PROFILE_LIMIT_S (seconds)
// sets another (the tests of a call that hangs under ncu use it).
double profiled_call_limit_s(const problem_spec& spec);

// Where profile keeps its reports: profiles/ beside the history database.
std::filesystem::path profiles_dir();

// Judges, times and profiles `source` on `test`. Throws counters_denied_error (exit 14) when ncu may
// not read the counters, environment_error when ncu fails otherwise.
profile_result profile_submission(const problem_spec& spec, const std::filesystem::path& source, int test,
                                  const std::filesystem::path& ncu, judge_context& context);

}  // namespace gpujudge
