#pragma once
// What every judgement works with (the folder, how to compile and run, where results are kept) and
// what it works against: the reference library and the tests chosen. Here, below the timing of
// benchmarks and the judging of submissions, because both need it.
#include "base/phase_timings.hpp"
#include "base/progress.hpp"
#include "compile/compiler.hpp"
#include "runner/session.hpp"
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

class history;

struct judge_context {
    std::filesystem::path home;
    compiler_settings compiler;
    runner_settings runner;
    history* results = nullptr;               // where attempts, timed results and ceilings are kept; none: nothing kept
    std::optional<double> assumed_peak_gbps;  // host backends have no ceiling to measure (tests set one)
    phase_timings timings;
    progress_hook progress;  // told what the judge is doing; none: nobody is
};

// Compiles the problem's reference.cpp; throws problem_error with the compiler's output.
std::filesystem::path build_reference(const problem_spec& spec, judge_context& context);

// Loads a compiled solution into the session. A file that cannot be called as solve (Python's
// syntax, signature) did not compile: `compile` is marked failed with why, and nothing is returned.
// Otherwise why the library did not load, if it did not (the caller's test or run fails with it).
std::optional<std::string> load_solution(runner_session& session, compile_result& compile);

// All tests of the kinds given (in file order), or every test when `kinds` is empty.
std::vector<int> select_tests(const problem_spec& spec, const std::vector<test_kind>& kinds);

}  // namespace gpujudge
