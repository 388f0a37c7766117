// A data set's inputs as solve gets them: made from the recipe at every write, the same bits as the
// reference's, and checked against the recipe after the call.
#include "buffers/data_set.hpp"
#include "buffers/memory_space.hpp"
#include "spec/problem_spec.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

using namespace gpujudge;

namespace {

const problem_spec& tiny_sum() {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return spec;
}

const parameter& first_input(const problem_spec& spec) {
    for (const auto& param : spec.params)
        if (param.is_pointer && param.is_input()) return param;
    throw std::logic_error("tiny_sum has no input");
}

}  // namespace

TEST_CASE("an input set writes the reference's bits, its changes in any order", "[data_set]") {
    const problem_spec& spec = tiny_sum();
    const test_spec& test = spec.tests.back();
    const parameter& input = first_input(spec);
    const data_set_spec data{41, {{0, 1000, 0xc0000000u}, {0, 3, 0x3f800000u}}};  // not in order
    const auto space = make_host_space();
    const input_set inputs(spec, *space, test, data);
    const host_array expected = host_inputs(spec, test, data).at(input.name);
    std::vector<unsigned char> written(expected.size_bytes());
    inputs.write(input, written.data());
    CHECK(std::memcmp(written.data(), expected.data(), written.size()) == 0);
    CHECK_FALSE(inputs.first_change(input, written.data()).has_value());
    CHECK(inputs.original_value(input, 3) == 1.0);
    CHECK(inputs.original_value(input, 1000) == -2.0);
    CHECK(inputs.original_value(input, 5) == expected.value(5));
}

TEST_CASE("every write is made afresh: a tag in one copy is not in the next, and the check finds it", "[data_set]") {
    const problem_spec& spec = tiny_sum();
    const test_spec& test = spec.tests.back();
    const parameter& input = first_input(spec);
    const auto space = make_host_space();
    const input_set inputs(spec, *space, test, {42, {{0, 3, 0x3f800000u}}});
    const std::size_t bytes = spec.element_count(input, test.scalars) * element_size(input.type);
    std::vector<std::uint32_t> tagged(bytes / 4), next(bytes / 4);
    inputs.write(input, tagged.data());
    const std::uint32_t untagged = tagged[17];
    tagged[17] ^= 1;  // the lowest mantissa bit: a tag a cache would key on
    inputs.write(input, next.data());
    CHECK(next[17] == untagged);
    CHECK(inputs.first_change(input, tagged.data()) == std::size_t{17});
    tagged[17] = untagged;
    tagged[3] = 0x3f800001u;  // a changed element altered
    CHECK(inputs.first_change(input, tagged.data()) == std::size_t{3});
}
