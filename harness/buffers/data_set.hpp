#pragma once
// The inputs of one call as a recipe: the test's generators with a seed, plus a few elements
// changed. Timed runs call solve on variants of a test's data that differ at secret positions
// (see the judge's timed_data), so the recipe travels instead of the data; the host (for the
// reference) and the device (for solve) each make the same bits from it.
#include "buffers/guarded_buffer.hpp"
#include "buffers/memory_space.hpp"
#include "inputs/generator.hpp"
#include "spec/host_array.hpp"
#include "spec/problem_spec.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpujudge {

// Part of every cache key of expected outputs: change it whenever generation changes.
constexpr const char* kGeneratorVersion = "philox4x32-10 irwin-hall v1";

struct element_change {
    std::uint32_t param = 0;  // position in the signature
    std::uint64_t index = 0;
    std::uint32_t bits = 0;  // the new element's bit pattern
};

struct data_set_spec {
    std::uint64_t seed = 0;
    std::vector<element_change> changes;
};

// Single elements of input `param` of a test, made with any seed, as bit patterns: what the
// variants of its data are made of. The generator's arguments are evaluated once.
class input_elements {
public:
    input_elements(const problem_spec& spec, const test_spec& test, std::uint32_t param);
    std::uint32_t bits(std::uint64_t seed, std::uint64_t index) const;

private:
    generator_params params_;
    element_type type_;
    std::uint32_t param_;
};

// The inputs on the host, by name: what the reference sees.
std::map<std::string, host_array> host_inputs(const problem_spec& spec, const test_spec& test,
                                              const data_set_spec& data);

// The same inputs made in a memory space (on a GPU: generated there; only the changes travel).
class input_set {
public:
    input_set(const problem_spec& spec, memory_space& space, const test_spec& test, const data_set_spec& data);
    // Each input's buffer, by name: the sources solve's buffers are loaded from, and the original
    // that a `const` input is checked against after the call.
    const std::map<std::string, const void*>& sources() const { return sources_; }

private:
    std::vector<guarded_buffer> buffers_;
    std::map<std::string, const void*> sources_;
};

}  // namespace gpujudge
