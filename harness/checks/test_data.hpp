#pragma once
// Running a function on host buffers, and comparing a call's outputs with the expected ones.
#include "checks/compare.hpp"
#include "spec/output_file.hpp"
#include "spec/problem_spec.hpp"
#include "spec/solve_function.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpujudge {

// What an output (not in-out) holds before the reference runs, per element type: words it does not
// compute. The float word is a quiet NaN with a payload that arithmetic keeps and never makes. Any
// int may be a result, so an int element found holding its word is told apart with a second run.
struct output_fill {
    std::uint32_t f32 = 0, i32 = 0;
};
constexpr output_fill kReferenceFill{0x7FE5A5A5u, 0xA5A5A5A5u};
constexpr output_fill kReferenceFillAgain{0x7FE5A5A5u, 0x5A5A5A5Au};

// What the harness finds wrong with a reference's outputs, told apart from what the reference throws.
struct reference_fault : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs `function` (the reference) on inputs the caller holds (input-only parameters' memory, by
// name), which the call must leave as they are, and returns its outputs by name; an in-out
// parameter's output starts as a copy of its input, the others as `fill`, each followed by a guard.
// Throws reference_fault naming the first element written past an output's end.
named_arrays run_on_host(const problem_spec& spec, const scalar_values& scalars,
                         const std::map<std::string, void*>& inputs, const solve_function& function, output_fill fill);

// run_on_host with kReferenceFill (and kReferenceFillAgain where an int output holds its word);
// also throws reference_fault naming the first element the reference left unwritten, or the first
// NaN or infinity it wrote from finite inputs.
named_arrays run_reference_on_host(const problem_spec& spec, const scalar_values& scalars,
                                   const std::map<std::string, void*>& inputs, const solve_function& function);

// Compares every output; the comparisons that failed, empty when all passed.
std::vector<comparison> compare_outputs(const problem_spec& spec, const scalar_values& scalars,
                                        const named_arrays& expected, const named_arrays& got);

// Whether `got` passes for `expected` (every output). A large output is checked in parts on every
// core, each part stopping at its first element that does not pass.
bool passes_as(const problem_spec& spec, const scalar_values& scalars, const named_arrays& expected,
               const named_arrays& got);

}  // namespace gpujudge
