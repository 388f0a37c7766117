#pragma once
// Seeded input generation: the same (seed, parameter position) always yields the same data, on the
// host and on the device (see counter_rng.hpp), whatever the number of threads that fill it.
#include "inputs/counter_rng.hpp"
#include "spec/host_array.hpp"
#include "spec/problem_spec.hpp"

#include <cstddef>
#include <cstdint>

namespace gpujudge {

// Evaluates `gen`'s arguments with `scalars` and derives its key from (seed, stream); `values`
// points into gen.values, which must outlive the result.
generator_params make_generator_params(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed,
                                       std::uint64_t stream);

// The key of (seed, stream): what make_generator_params puts in `key`.
std::uint64_t generator_key(std::uint64_t seed, std::uint64_t stream);

// One element as the bits stored in the buffer (float or int32 bit pattern): used to perturb single elements.
std::uint32_t generated_bits(const generator_params& params, element_type type, std::uint64_t index);

// Fills num_items elements of `type` at h_out, in chunks over `num_threads` threads (0: one per
// core); every element depends only on its index, so the data does not depend on the threads.
void fill_generated(const generator_params& params, element_type type, void* h_out, std::size_t num_items,
                    unsigned num_threads = 0);

// Fills `out` (already sized) from `gen`, evaluating its arguments with `scalars`.
void generate(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed, std::uint64_t stream,
              host_array& out);

}  // namespace gpujudge
