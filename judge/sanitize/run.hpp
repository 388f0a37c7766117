#pragma once
// One submission's examples and functional tests judged under compute-sanitizer, and what the tool
// found there: for `sanitize`, and for `validate --sanitize`, which checks the shipped solutions'
// declared findings.
#include "judging/submission.hpp"
#include "sanitize/report.hpp"

#include <filesystem>
#include <string>

namespace gpujudge {

// Every test runs (a failed one does not end the run), with solve's buffers exact so that the tool
// sees what the guards would hide, and the time limit stretched for the tool. Throws
// environment_error when compute-sanitizer is not installed.
sanitize_result sanitize_submission(const problem_spec& spec, const std::filesystem::path& source,
                                    const std::string& tool, judge_context& context);

}  // namespace gpujudge
