#pragma once
// What a problem's view holds, for `show` (text) and `serve` (JSON): the prose from statement.md,
// then the signature, the constraints and the examples rendered from problem.yaml, the file the
// judge runs, so that what the learner reads is what is judged.
#include "spec/problem_spec.hpp"

#include <string>
#include <vector>

namespace gpujudge {

// statement.md without its trailing newlines; empty when there is none.
std::string statement_prose(const problem_spec& spec);

// "1 ≤ N ≤ 100000000" per scalar in the signature's order, then the conditions, then the time limit.
std::vector<std::string> constraint_lines(const problem_spec& spec);

// "example 1:\n  input = [1, 2]\n  N = 2\n  → output = [3]\n": inputs and scalars in the signature's
// order, numbers exactly as problem.yaml holds them, arrays nested by their shape.
std::string example_text(const problem_spec& spec, const test_spec& test);

// The whole view as `gpujudge show` prints it (Markdown).
std::string problem_text(const problem_spec& spec);

}  // namespace gpujudge
