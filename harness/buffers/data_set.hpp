#pragma once
// The inputs of one call as a recipe: the test's generators with a seed, plus a few elements
// changed. Timed runs call solve on variants of a test's data that differ at secret positions
// (see the judge's timed_data), so the recipe travels instead of the data; the host (for the
// reference) and the device (for solve) each make the same bits from it.
#include "buffers/memory_space.hpp"
#include "inputs/generator.hpp"
#include "spec/host_array.hpp"
#include "spec/problem_spec.hpp"

#include <cstdint>
#include <map>
#include <optional>
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

// The same inputs in a memory space, made afresh from the recipe at every write (on a GPU: generated
// there; only the changes travel, and are wiped there once used). No copy of a data set stays where
// solve could reach it: a copy could be tagged in a few low bits and known again the next time, and
// the answer replayed from a cache; the recipe cannot be tagged. The after-call check of a `const`
// input compares it with the recipe too, where it lives.
class input_set {
public:
    input_set(const problem_spec& spec, memory_space& space, const test_spec& test, const data_set_spec& data);
    // Makes input `param` in dst, a buffer of the space of its size.
    void write(const parameter& param, void* dst) const;
    // The first element of `now` (input `param` after a call) that is not as write() made it, if any.
    std::optional<std::size_t> first_change(const parameter& param, const void* now) const;
    // Element `index` of input `param` as write() makes it.
    double original_value(const parameter& param, std::size_t index) const;

private:
    struct input {
        generator_params params;
        element_type type;
        std::size_t num_items = 0;
        std::vector<std::uint64_t> change_indices;  // sorted
        std::vector<std::uint32_t> change_bits;
    };
    const input& at(const parameter& param) const;

    memory_space* space_;
    std::map<std::string, input> inputs_;
};

}  // namespace gpujudge
