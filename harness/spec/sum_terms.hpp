#pragma once
// The terms of a declared sum (problem.yaml `diagnosis: sums:`), evaluated element by element over
// a test's inputs: what the judge recomputes a wrong sum from, and what validate checks the
// declaration with against the examples.
#include "spec/host_array.hpp"
#include "spec/problem_spec.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <string>

namespace gpujudge {

using term_consumer = std::function<void(const double* terms, std::size_t count)>;

// Calls `consume` with the terms in index order, a block at a time (a 100M-element sum is never
// held whole). Throws expression_error when the expression cannot be evaluated.
void for_each_term_block(const sum_spec& sum, const scalar_values& scalars,
                         const std::map<std::string, host_array>& inputs, const term_consumer& consume);

// The number of terms: the element count of the inputs the terms read.
std::size_t term_count(const problem_spec& spec, const sum_spec& sum, const scalar_values& scalars);

// scale * the sum of the terms, in double.
double sum_value(const sum_spec& sum, const scalar_values& scalars, const std::map<std::string, host_array>& inputs);

}  // namespace gpujudge
