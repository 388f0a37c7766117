#pragma once
// The whole path of one submission: probe the device, compile, run the tests, decide the verdict.
#include "compiler.hpp"
#include "judging.hpp"
#include "problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpujudge {

// The problem's own files are at fault (its reference does not compile, say): not the submission's.
class problem_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct judge_context {
    std::filesystem::path home;
    compiler_settings compiler;
    runner_settings runner;
    // Probed once per process, in a runner: the judge itself never touches the GPU.
    const judge_run& device();

private:
    std::optional<judge_run> device_;
};

struct submission_result {
    verdict overall = verdict::accepted;
    compile_result compile;
    judge_run run;
};

// Compiles the problem's reference.cpp; throws problem_error with the compiler's output.
std::filesystem::path build_reference(const problem_spec& spec, judge_context& context);

// All tests of the kinds given (in file order), or every test when `kinds` is empty.
std::vector<int> select_tests(const problem_spec& spec, const std::vector<test_kind>& kinds);

submission_result judge_submission(const problem_spec& spec, const std::filesystem::path& source,
                                   const std::vector<int>& tests, judge_context& context);

}  // namespace gpujudge
