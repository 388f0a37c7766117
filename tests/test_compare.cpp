#include "checks/compare.hpp"
#include "checks/poison.hpp"
#include "checks/test_data.hpp"
#include "inputs/generator.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace gpujudge;

namespace {

host_array floats(std::vector<float> values) {
    host_array out(element_type::f32, values.size());
    std::memcpy(out.data(), values.data(), out.size_bytes());
    return out;
}

// Float32 sums in the orders real kernels use.
float sum_pairwise(const float* x, std::size_t n) {
    if (n <= 8) {
        float s = 0;
        for (std::size_t i = 0; i < n; ++i) s += x[i];
        return s;
    }
    return sum_pairwise(x, n / 2) + sum_pairwise(x + n / 2, n - n / 2);
}

// Grid-stride chains per thread, a tree inside each block, block partials added one by one (atomicAdd).
float sum_grid_stride_atomic(const float* x, std::size_t n, std::size_t blocks, std::size_t threads) {
    const std::size_t total = blocks * threads;
    std::vector<float> chain(total, 0.0f);
    for (std::size_t i = 0; i < n; ++i) chain[i % total] += x[i];
    float result = 0;
    for (std::size_t b = 0; b < blocks; ++b) result += sum_pairwise(chain.data() + b * threads, threads);
    return result;
}

float sum_sequential(const float* x, std::size_t n) {
    float s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
}

float sum_half(const float* x, std::size_t n) {
    _Float16 s = 0;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<_Float16>(x[i]);
    return static_cast<float>(s);
}

struct reduction_case {
    problem_spec spec;
    const test_spec* test = nullptr;
    host_array input;
    double exact = 0;
};

reduction_case reduction_test(const std::string& name) {
    reduction_case c;
    c.spec = load_problem(std::string(GPUJUDGE_SOURCE_DIR) + "/problems/reduction");
    for (const auto& test : c.spec.tests)
        if (test.name == name) c.test = &test;
    REQUIRE(c.test != nullptr);
    const parameter& input = *c.spec.find_parameter("input");
    c.input = host_array(element_type::f32, c.spec.element_count(input, c.test->scalars));
    generate(c.spec.generator_for(*c.test, input), c.test->scalars, c.test->seed, 0, c.input);
    for (std::size_t i = 0; i < c.input.size(); ++i) c.exact += c.input.value(i);
    return c;
}

bool accepted(const reduction_case& c, float got) {
    const tolerance tol = tolerance_for(c.spec, *c.spec.find_parameter("output"), c.test->scalars);
    return compare_output("output", floats({static_cast<float>(c.exact)}), floats({got}), tol, {1}).passed();
}

}  // namespace

TEST_CASE("mismatches are counted and described with their coordinates", "[compare]") {
    const host_array expected = floats({1, 2, 3, 4, 5, 6});
    host_array got = floats({1, 2, 3.5f, 4, 5, 6});
    std::memset(got.as<float>() + 5, kFloatPoisonByte, 4);
    const comparison result = compare_output("out", expected, got, {0.1, 0}, {2, 3});
    CHECK(result.num_mismatches == 2);
    CHECK(result.describe() ==
          "2 of 6 elements of 'out' differ from the reference (tolerance: atol 0.1 + rtol 0 * |expected|)\n"
          "  out[0, 2]: expected 3, got 3.5 (abs error 0.5)\n"
          "  out[1, 2]: expected 6, got nothing (never written)\n"
          "  max abs error 0.5, max rel error 0.167");
}

TEST_CASE("NaN and infinities match only themselves, integers compare exactly", "[compare]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(compare_output("o", floats({nan, inf}), floats({nan, inf}), {1, 0}, {2}).passed());
    CHECK(compare_output("o", floats({1, inf}), floats({nan, -inf}), {1, 0}, {2}).num_mismatches == 2);
    CHECK(compare_output("o", floats({1e6f}), floats({1e6f + 60}), {0, 1e-4}, {1}).passed());
    host_array a(element_type::i32, 1), b(element_type::i32, 1);
    a.as<std::int32_t>()[0] = 1000000;
    b.as<std::int32_t>()[0] = 1000001;
    CHECK_FALSE(compare_output("o", a, b, {10, 10}, {1}).passed());
    // Described exactly too: through float, 123456791 and 123456790 both read 123456792.
    a.as<std::int32_t>()[0] = 123456791;
    b.as<std::int32_t>()[0] = 123456790;
    CHECK(compare_output("o", a, b, {0, 0}, {1}).describe() ==
          "1 of 1 elements of 'o' differ from the reference\n"
          "  o[0]: expected 123456791, got 123456790 (abs error 1)\n"
          "  max abs error 1, max rel error 8.1e-09");
}

TEST_CASE("the reduction tolerance accepts float32 summation orders at the maximum N", "[compare][tolerance]") {
    const reduction_case c = reduction_test("N = 100000000 (maximum)");
    const float* x = c.input.as<float>();
    const std::size_t n = c.input.size();
    CHECK(accepted(c, sum_pairwise(x, n)));
    CHECK(accepted(c, sum_grid_stride_atomic(x, n, 264, 256)));
    CHECK(accepted(c, sum_grid_stride_atomic(x, n, 8, 1024)));
    CHECK(accepted(c, sum_sequential(x, n)));  // one atomicAdd per element: the longest chain there is
}

TEST_CASE("the reduction tolerance rejects a dropped tail and fp16 accumulation", "[compare][tolerance]") {
    for (const char* name : {"N = 5", "N = 31", "N = 33", "all negative, N = 4099", "N = 1000003"}) {
        INFO(name);
        const reduction_case c = reduction_test(name);
        const std::size_t n = c.input.size();
        CHECK(accepted(c, sum_pairwise(c.input.as<float>(), n)));
        CHECK_FALSE(accepted(c, sum_pairwise(c.input.as<float>(), n - n % 4)));
    }
    for (const char* name : {"N = 1000", "all negative, N = 4099", "N = 1000003"}) {
        INFO(name);
        const reduction_case c = reduction_test(name);
        CHECK_FALSE(accepted(c, sum_half(c.input.as<float>(), c.input.size())));
    }
}

TEST_CASE("passes_as finds one wrong element anywhere in a large output, checked in parts", "[compare]") {
    const problem_spec spec = load_problem(std::string(GPUJUDGE_SOURCE_DIR) + "/problems/batch_normalization");
    const test_spec* largest = nullptr;
    for (const auto& test : spec.tests)
        if (test.name == "N = 10000, C = 1024 (maximum)") largest = &test;
    REQUIRE(largest != nullptr);
    const std::size_t count = spec.element_count(*spec.find_parameter("output"), largest->scalars);
    REQUIRE(count > (std::size_t{1} << 20));  // large enough to be checked in parts
    named_arrays expected, got;
    expected.emplace("output", host_array(element_type::f32, count));
    float* want = expected.at("output").as<float>();
    for (std::size_t i = 0; i < count; ++i) want[i] = static_cast<float>(i % 1000) / 250.0f - 2.0f;
    got.emplace("output", expected.at("output"));
    float* have = got.at("output").as<float>();
    CHECK(passes_as(spec, largest->scalars, expected, got));
    // The first and last elements, both sides of every boundary of up to 16 equal parts, and the middle.
    std::vector<std::size_t> places{0, count / 2, count - 1};
    for (std::size_t parts = 2; parts <= 16; ++parts) {
        const std::size_t chunk = (count + parts - 1) / parts;
        for (std::size_t boundary = chunk; boundary < count; boundary += chunk)
            places.insert(places.end(), {boundary - 1, boundary});
    }
    for (const std::size_t at : places) {
        INFO("element " << at);
        const float kept = have[at];
        have[at] = kept + 1.0f;  // far outside atol 1e-4 + rtol 1e-4
        CHECK_FALSE(passes_as(spec, largest->scalars, expected, got));
        have[at] = kept + 5e-5f;  // inside the tolerance
        CHECK(passes_as(spec, largest->scalars, expected, got));
        have[at] = kept;
    }
    have[count - 1] = std::nanf("");
    CHECK_FALSE(passes_as(spec, largest->scalars, expected, got));
}

TEST_CASE("an int output's never-written elements are left out of the error figures, as float ones are", "[compare]") {
    host_array expected(element_type::i32, 2), got(element_type::i32, 2);
    expected.as<std::int32_t>()[0] = 2;
    expected.as<std::int32_t>()[1] = 5;
    got.set_bits(0, poison_word(element_type::i32));
    got.as<std::int32_t>()[1] = 7;
    const std::string text = compare_output("count", expected, got, {0, 0}, {2}).describe();
    INFO(text);
    CHECK(text.find("  count[0]: expected 2, got nothing (never written)\n") != std::string::npos);
    CHECK(text.find("  max abs error 2, max rel error 0.4") != std::string::npos);
}

namespace {

// A reference of count_array_element's signature (input, output[1], N, K) that writes what it is told.
struct fake_reference : solve_function {
    std::vector<int> writes;  // indices of output written, with `value`
    std::int32_t value = 0;
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values&) const override {
        for (int i : writes) static_cast<std::int32_t*>(pointers[1])[i] = value;
        return std::nullopt;
    }
};

std::string reference_fault_of(const fake_reference& reference) {
    const problem_spec spec = load_problem(std::string(GPUJUDGE_SOURCE_DIR) + "/problems/count_array_element");
    std::vector<std::int32_t> input(4, 1);
    try {
        const named_arrays outputs =
            run_reference_on_host(spec, {{"N", 4}, {"K", 1}}, {{"input", input.data()}}, reference);
        return "written: " + std::to_string(outputs.at("output").as<std::int32_t>()[0]);
    } catch (const reference_fault& fault) {
        return fault.what();
    }
}

}  // namespace

TEST_CASE("a reference must write every output element, within the output, whatever its value", "[compare]") {
    fake_reference reference;
    CHECK(reference_fault_of(reference) == "'output'[0] was never written");
    reference.writes = {0};
    reference.value = static_cast<std::int32_t>(kReferenceFill.i32);  // the first fill's word, written
    CHECK(reference_fault_of(reference) == "written: " + std::to_string(reference.value));
    reference.value = 4;
    CHECK(reference_fault_of(reference) == "written: 4");
    reference.writes = {0, 1};
    CHECK(reference_fault_of(reference) ==
          "the reference wrote past the end of 'output' (element [1] of a buffer of 1)");
}

namespace {

// A reference of reduction's signature (input, output[1], N) that writes what it is told.
struct float_reference : solve_function {
    float value = 0;
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values&) const override {
        static_cast<float*>(pointers[1])[0] = value;
        return std::nullopt;
    }
};

std::string reference_fault_of(const float_reference& reference, float first_input) {
    const problem_spec spec = load_problem(std::string(GPUJUDGE_SOURCE_DIR) + "/problems/reduction");
    std::vector<float> input = {first_input, 1, 2, 3};
    try {
        const named_arrays outputs = run_reference_on_host(spec, {{"N", 4}}, {{"input", input.data()}}, reference);
        return "written: " + std::to_string(outputs.at("output").as<float>()[0]);
    } catch (const reference_fault& fault) {
        return fault.what();
    }
}

}  // namespace

TEST_CASE("a reference's NaN or infinity from finite inputs is its fault, from a NaN input it is its answer",
          "[compare]") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    float_reference reference;
    reference.value = nan;
    CHECK(reference_fault_of(reference, 0) ==
          "'output'[0] is NaN (1 of 1 elements of 'output' are not finite), though every input is finite: a "
          "reference's outputs must be finite");
    reference.value = -inf;
    CHECK(reference_fault_of(reference, 0) ==
          "'output'[0] is -inf (1 of 1 elements of 'output' are not finite), though every input is finite: a "
          "reference's outputs must be finite");
    CHECK(reference_fault_of(reference, nan) == "written: -inf");
    reference.value = 6;
    CHECK(reference_fault_of(reference, 0) == "written: 6.000000");
}
