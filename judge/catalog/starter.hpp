#pragma once
// The file `gpujudge init` writes: LeetGPU's shape of a starter — a kernel stub taking the
// problem's parameters, its launch from solve, and the judge's conventions in a comment.
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// The scalar the starter's grid is sized by: the first int scalar, in signature order, that a
// pointer's shape names (N for reduction, rows for matrix_row_sum); none when no shape names one.
std::optional<std::string> launch_size_scalar(const problem_spec& spec);

// What the starter's grid covers, one thread per element: the first output's element count when it has
// two extents or more ("N * C" for batch_normalization, "rows * cols"), else launch_size_scalar's.
std::optional<std::string> launch_size(const problem_spec& spec);

// The starter's source. Its kernel body is empty, so it compiles and fails the first example
// (its outputs stay poisoned): speed tests use it as a submission that fails early.
std::string starter_source(const problem_spec& spec);

// The starter in `language`: "cuda" (the one above), "pytorch" (solve's Python signature and a body
// to fill) or "triton" (a @triton.jit kernel stub and its launch, as LeetGPU's Python starters).
std::string starter_source(const problem_spec& spec, const std::string& language);

// solve's Python signature (LeetGPU's): tensors for pointers, int or float for scalars, as
// "def solve(input: torch.Tensor, output: torch.Tensor, N: int)".
std::string python_signature(const problem_spec& spec);

// The languages a solution may be written in, as `init --lang` and the page's picker name them: "cuda",
// "pytorch", "triton". The one list: anything else a user or a request names is refused against it.
const std::vector<std::string>& solution_languages();

// The file extension of a solution in `language`, one of solution_languages(): ".cu", or ".py" for both
// Python languages.
std::string language_extension(const std::string& language);

// The language a solution file is written in: cuda for any file but a .py; a .py is triton when it imports
// triton, else pytorch.
std::string language_of_source(const std::filesystem::path& source);

}  // namespace gpujudge
