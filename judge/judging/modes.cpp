#include "judging/modes.hpp"

#include <algorithm>

namespace gpujudge {

timed_settings quick_timing() {
    timed_settings quick;
    quick.data_sets = 3;
    quick.slots = 2;
    quick.warmup = 2;
    quick.warmup_s = 0.05;
    quick.min_samples = 10;
    quick.min_time_s = 0;
    quick.budget_s = 0.2;
    return quick;
}

timed_settings submit_timing() {
    // Half of bench's sampling floor and a third of its budget, the same error target.
    timed_settings learner;
    learner.warmup_s = 0.2;
    learner.min_time_s = 0.5;
    learner.budget_s = 1.0;
    return learner;
}

// LeetGPU's "Run" beside its "Submit": the examples and functional tests, no timed runs, so that
// the answer comes in about a second once the file is compiled.
judge_options run_options(const problem_spec& spec) {
    judge_options judging;
    judging.tests = select_tests(spec, {test_kind::example, test_kind::functional});
    judging.timed = false;
    judging.origin = "run";
    judging.keep_attempt = true;
    return judging;
}

judge_options submit_options(const problem_spec& spec, const std::vector<test_kind>& kinds, bool timed) {
    judge_options judging;
    judging.tests = select_tests(spec, kinds);
    // Timed runs are the benchmarks': tests chosen without them are judged, not timed.
    const bool benchmarks = kinds.empty() || std::find(kinds.begin(), kinds.end(), test_kind::benchmark) != kinds.end();
    judging.timed = timed && benchmarks;
    judging.keep_attempt = true;
    judging.timing = submit_timing();
    return judging;
}

judge_options validate_options(const problem_spec& spec) {
    judge_options options;
    options.tests = select_tests(spec, {});
    options.with_baseline = false;
    options.timing = quick_timing();
    options.origin = "validate";
    return options;
}

judge_options profile_options(int test) {
    judge_options options;
    options.tests = {test};
    options.timed_tests = {test};
    options.with_baseline = false;
    options.timing = submit_timing();
    options.origin = "profile";
    return options;
}

// Benchmarks take far too long under the tools, and timings there mean nothing. All of run's
// tests, on exact buffers, and no attempt kept: the tool's findings are the point.
judge_options sanitize_options(const problem_spec& spec) {
    judge_options options = run_options(spec);
    options.origin = "sanitize";
    options.keep_attempt = false;
    options.stop_at_failure = false;
    options.exact_buffers = true;
    return options;
}

}  // namespace gpujudge
