#pragma once
// The named ways of judging a submission: what each command (and serve's buttons) asks of
// judge_submission. The CLI and serve pick a mode; none builds judge_options of its own.
#include "judging/submission.hpp"
#include "spec/problem_spec.hpp"

#include <vector>

namespace gpujudge {

// The settings validate --run times with: enough calls to catch cached answers, a rough median.
timed_settings quick_timing();
// The settings submit (and profile) time with: a learner waits for these.
timed_settings submit_timing();

// What `run` judges: the examples and functional tests, untimed.
judge_options run_options(const problem_spec& spec);
// What `submit` judges: the tests of `kinds` (all when empty), then, when `timed` and the benchmarks are
// among them, the timed runs with a learner's sampling budget.
judge_options submit_options(const problem_spec& spec, const std::vector<test_kind>& kinds, bool timed);
// What `validate --run` judges a shipped solution with: every test, timed quickly, no baseline.
judge_options validate_options(const problem_spec& spec);
// What `profile` judges first, unprofiled: one benchmark (a position in spec.tests) and its timed run.
judge_options profile_options(int test);
// What `sanitize` judges under a tool: run's tests, every one, on exact buffers, no attempt kept.
judge_options sanitize_options(const problem_spec& spec);

}  // namespace gpujudge
