#pragma once
// Seeded input generation: the same (seed, parameter position) always yields the same data,
// whatever the number of threads that fill it.
#include "host_array.hpp"
#include "problem_spec.hpp"

#include <cstdint>

namespace gpujudge {

// Fills `out` (already sized) from `gen`, evaluating its arguments with `scalars`.
void generate(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed, std::uint64_t stream,
              host_array& out);

}  // namespace gpujudge
