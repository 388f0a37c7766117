#pragma once
// One test made concrete: its scalars, generated (or literal) inputs and the expected outputs.
#include "c_function.hpp"
#include "compare.hpp"
#include "host_array.hpp"
#include "problem_spec.hpp"

#include <map>
#include <string>
#include <vector>

namespace gpujudge {

struct test_data {
    const test_spec* test = nullptr;
    scalar_values scalars;
    std::map<std::string, host_array> inputs;    // input and inout buffers, as solve must see them
    std::map<std::string, host_array> expected;  // output buffers
};

// The inputs of a test generated with `seed`, no expected outputs yet.
test_data generate_inputs(const problem_spec& spec, const test_spec& test, std::uint64_t seed);

// Generates the inputs with `seed` (the test's own unless given) and runs the reference; examples
// take their literal expected outputs instead.
test_data prepare_test(const problem_spec& spec, const test_spec& test, const c_function& reference);
test_data prepare_test(const problem_spec& spec, const test_spec& test, const c_function& reference,
                       std::uint64_t seed);

// Runs `function` on host copies of `data`'s inputs and returns its outputs by name.
std::map<std::string, host_array> run_on_host(const problem_spec& spec, const test_data& data,
                                              const c_function& function);

// The shape of a pointer parameter for a test's scalars, as extents.
std::vector<long long> extents_of(const parameter& pointer, const scalar_values& scalars);

tolerance tolerance_for(const problem_spec& spec, const parameter& output, const scalar_values& scalars);

// Compares every output; the comparisons that failed, empty when all passed.
std::vector<comparison> compare_outputs(const problem_spec& spec, const test_data& data,
                                        const std::map<std::string, host_array>& got);

}  // namespace gpujudge
