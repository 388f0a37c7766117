#pragma once
// What a shipped solution declares (`// expect:`, `// cause:`) against what the judge made of it:
// the check of validate --run.
#include "catalog/catalog.hpp"
#include "judging/submission.hpp"

#include <optional>
#include <string>

namespace gpujudge {

// The likely cause named by the test that decided the verdict (the first that did not pass).
std::optional<cause_kind> shown_cause(const judgement& result);

// Why the judgement is not what the solution declares ("declared wrong_answer, judged accepted
// (...)", "declared cause dropped_tail, shown none"); nothing when it is. A file that declares
// `rejected` matches every verdict but accepted (so it leaves no timed result of its own) and
// no_device (no judgement at all).
std::optional<std::string> declaration_mismatch(const solution_file& solution, const judgement& result);

}  // namespace gpujudge
