#pragma once
// A problem's expressions evaluated at one test's scalars: the shape of each buffer and the tolerance of
// each float output.
#include "spec/problem_spec.hpp"

#include <vector>

namespace gpujudge {

// The shape of a pointer parameter for a test's scalars, as extents.
std::vector<long long> extents_of(const parameter& pointer, const scalar_values& scalars);

struct tolerance {
    double atol = 0;
    double rtol = 0;
};

tolerance tolerance_for(const problem_spec& spec, const parameter& output, const scalar_values& scalars);

}  // namespace gpujudge
