#pragma once
// The whole path of one submission: open the device while compiling and computing references,
// judge the tests, time the benchmarks, then decide the verdict, once, from all of it.
#include "base/phase_timings.hpp"
#include "base/problem_error.hpp"
#include "base/progress.hpp"
#include "bench/timing.hpp"
#include "compile/compiler.hpp"
#include "history/database.hpp"
#include "references/context.hpp"
#include "runner/session.hpp"
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct judge_options {
    std::vector<int> tests;        // positions in spec.tests
    bool timed = true;             // once every test passes, time the benchmarks...
    std::vector<int> timed_tests;  // ...these (positions in spec.tests); empty: every benchmark
    bool with_baseline = true;     // the reference points, both: the baseline (× baseline) and...
    bool with_torch = true;        // ...the PyTorch one-liner (× torch), which this alone leaves out
    timed_settings timing;
    std::string origin = "submit";  // recorded in the history
    bool keep_attempt = false;      // a learner's run or submit: kept in the history's attempts
    bool stop_at_failure = true;    // the first test that fails ends the judging (sanitize runs them all)
    bool exact_buffers = false;     // solve's buffers without guards (see judge_job)
};

struct judgement {
    std::string source_hash;  // of the source as it was before compiling, whatever happens to it later
    compile_result compile;
    std::optional<device_message> device;
    std::optional<std::string> no_device;
    std::vector<test_report> tests;
    std::optional<bench_report> bench;  // timed runs: the reference points' entries first, then the submission's
    std::string program_output;
    verdict overall = verdict::accepted;  // see decide()
    std::string reason;                   // why, in one line, when not accepted

    // The tests ran: it compiled and had a device. Otherwise its tests say nothing.
    bool judged() const { return compile.ok && !no_device; }
    // How many tests were accepted.
    std::size_t passed() const;
};

// Throws problem_error when the problem's own files fail (its reference crashes, say). What the
// history cannot keep is a warning: the judgement stands.
judgement judge_submission(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
                           judge_context& context);

// The GPU architecture the judge last saw (kept in the compile cache as it judges, nvcc's first guess the
// next time); empty before any judgement had a device.
std::string last_seen_arch(const compiler_settings& compiler);

// The one decision: compile, device, the first failed test, then the first failed timed run.
void decide(judgement& result);

// The submission's own timed entry (not a reference point's), if it was timed.
const bench_entry* submission_entry(const judgement& result);

// Each problem's personal best: its fastest accepted attempt on the problem as it is now (its
// problem_version), in the order of `specs`; problems without one are left out.
std::vector<attempt> personal_bests(const history& results, const std::vector<problem_spec>& specs);

}  // namespace gpujudge
