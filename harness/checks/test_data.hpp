#pragma once
// Running a function on host buffers, and comparing a call's outputs with the expected ones.
#include "checks/compare.hpp"
#include "spec/output_file.hpp"
#include "spec/problem_spec.hpp"
#include "spec/solve_function.hpp"

#include <vector>

namespace gpujudge {

// Each array's memory, by name: inputs for run_on_host.
std::map<std::string, void*> pointers_of(named_arrays& arrays);

// Runs `function` (the reference) on inputs the caller holds (input-only parameters' memory, by
// name), which the call must leave as they are, and returns its outputs by name; an in-out
// parameter's output starts as a copy of its input.
named_arrays run_on_host(const problem_spec& spec, const scalar_values& scalars,
                         const std::map<std::string, void*>& inputs, const solve_function& function);

// Compares every output; the comparisons that failed, empty when all passed.
std::vector<comparison> compare_outputs(const problem_spec& spec, const scalar_values& scalars,
                                        const named_arrays& expected, const named_arrays& got);

// Whether `got` passes for `expected` (every output). A large output is checked in parts on every
// core, each part stopping at its first element that does not pass.
bool passes_as(const problem_spec& spec, const scalar_values& scalars, const named_arrays& expected,
               const named_arrays& got);

}  // namespace gpujudge
