#pragma once
// The whole path of one submission: open the device while compiling and computing references,
// judge the tests, time the benchmarks, then decide the verdict, once, from all of it.
#include "benchmarking.hpp"
#include "compiler.hpp"
#include "history.hpp"
#include "judging.hpp"
#include "phase_timings.hpp"
#include "problem_error.hpp"
#include "problem_spec.hpp"
#include "progress.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct judge_context {
    std::filesystem::path home;
    compiler_settings compiler;
    runner_settings runner;
    history* results = nullptr;               // where attempts, timed results and ceilings are kept; none: nothing kept
    std::optional<double> assumed_peak_gbps;  // host backends have no ceiling to measure (tests set one)
    phase_timings timings;
    progress_hook progress;  // told what the judge is doing; none: nobody is
};

struct judge_options {
    std::vector<int> tests;        // positions in spec.tests
    bool timed = true;             // once every test passes, time the benchmarks...
    std::vector<int> timed_tests;  // ...these (positions in spec.tests); empty: every benchmark
    bool with_baseline = true;
    timed_settings timing;
    std::string origin = "submit";  // recorded in the history
    bool keep_attempt = false;      // a learner's run or submit: kept in the history's attempts
    bool stop_at_failure = true;    // the first test that fails ends the judging (sanitize runs them all)
    bool exact_buffers = false;     // solve's buffers without guards (see judge_job)
};

// The settings validate --run times with: enough calls to catch cached answers, a rough median.
timed_settings quick_timing();
// The settings submit (and profile) time with: a learner waits for these.
timed_settings submit_timing();

struct judgement {
    std::string source_hash;  // of the source as it was before compiling, whatever happens to it later
    compile_result compile;
    std::optional<device_message> device;
    std::optional<std::string> no_device;
    std::vector<test_report> tests;
    std::optional<bench_report> bench;  // timed runs: the baseline's entry first, then the submission's
    std::string program_output;
    verdict overall = verdict::accepted;  // see decide()
    std::string reason;                   // why, in one line, when not accepted
};

// Compiles the problem's reference.cpp; throws problem_error with the compiler's output.
std::filesystem::path build_reference(const problem_spec& spec, judge_context& context);

// All tests of the kinds given (in file order), or every test when `kinds` is empty.
std::vector<int> select_tests(const problem_spec& spec, const std::vector<test_kind>& kinds);

// Throws problem_error when the problem's own files fail (its reference crashes, say). What the
// history cannot keep is a warning: the judgement stands.
judgement judge_submission(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
                           judge_context& context);

// The one decision: compile, device, the first failed test, then the first failed timed run.
void decide(judgement& result);

// The submission's own timed entry (not the baseline's), if it was timed.
const bench_entry* submission_entry(const judgement& result);

}  // namespace gpujudge
