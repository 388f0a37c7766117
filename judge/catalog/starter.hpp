#pragma once
// The file `gpujudge init` writes: LeetGPU's shape of a starter — a kernel stub taking the
// problem's parameters, its launch from solve, and the judge's conventions in a comment.
#include "problem_spec.hpp"

#include <optional>
#include <string>

namespace gpujudge {

// The scalar the starter's grid is sized by: the first int scalar, in signature order, that a
// pointer's shape names (N for reduction, rows for matrix_row_sum); none when no shape names one.
std::optional<std::string> launch_size_scalar(const problem_spec& spec);

// The starter's source. Its kernel body is empty, so it compiles and fails the first example
// (its outputs stay poisoned): speed tests use it as a submission that fails early.
std::string starter_source(const problem_spec& spec);

// The starter in `language`: "cuda" (the one above), "pytorch" (solve's Python signature and a body
// to fill) or "triton" (a @triton.jit kernel stub and its launch, as LeetGPU's Python starters).
std::string starter_source(const problem_spec& spec, const std::string& language);

}  // namespace gpujudge
