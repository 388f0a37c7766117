// The likely-cause rules, on outputs made to show each pattern, and silent where none fits.
#include "checks/compare.hpp"
#include "checks/poison.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace gpujudge;

namespace {

host_array floats(std::size_t n, float value) {
    host_array out(element_type::f32, n);
    for (std::size_t i = 0; i < n; ++i) std::memcpy(static_cast<char*>(out.data()) + 4 * i, &value, 4);
    return out;
}

void poison_at(host_array& a, std::size_t i) {
    a.set_bits(i, poison_word(a.type()));
}

void set_float(host_array& a, std::size_t i, float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, 4);
    a.set_bits(i, bits);
}

std::string cause_of(const host_array& expected, const host_array& got) {
    const comparison c = compare_output("out", expected, got, {1e-6, 1e-6}, {static_cast<long long>(expected.size())});
    const auto cause = likely_cause(c.pattern);
    return cause ? cause->text : "";
}

}  // namespace

TEST_CASE("an output never written, wholly or in part, is named as such", "[compare][cause]") {
    const host_array expected = floats(1000, 2.0f);
    host_array got = floats(1000, 2.0f);
    for (std::size_t i = 0; i < 1000; ++i) poison_at(got, i);
    CHECK(cause_of(expected, got) ==
          "likely cause: the output was never written (the poison the judge put there is intact): check the "
          "kernel is launched and writes to this pointer");
    const comparison python = compare_output("out", expected, got, {1e-6, 1e-6}, {1000});
    CHECK(likely_cause(python.pattern, solve_language::python)->text ==
          "likely cause: the output was never written (the poison the judge put there is intact): solve must write "
          "into the output tensor in place (output.copy_(...), output[:] = ..., or a kernel launched on it): what "
          "solve returns is ignored, and `output = ...` only rebinds the name");
    got = floats(1000, 2.0f);
    for (std::size_t i = 500; i < 700; ++i) poison_at(got, i);
    CHECK(cause_of(expected, got) ==
          "likely cause: 200 elements were never written (the judge's poison is intact there): the grid or a "
          "loop does not cover the whole output");
}

TEST_CASE("infinity where the reference is finite is an overflow, NaN alone may be an unzeroed output",
          "[compare][cause]") {
    const host_array expected = floats(8, 0.125f);
    host_array got = floats(8, 0.125f);
    set_float(got, 3, std::numeric_limits<float>::infinity());
    set_float(got, 5, std::nanf(""));
    CHECK(cause_of(expected, got).rfind("likely cause: infinity where the reference is finite", 0) == 0);
    host_array nans = floats(8, 0.125f);
    set_float(nans, 2, std::nanf(""));  // a NaN that is not the poison's bit pattern
    CHECK(
        cause_of(expected, nans).rfind("likely cause: NaN where the reference is finite: the output was added to", 0) ==
        0);
    // Most wrong elements non-finite, the rest what the same overflow left finite (x / inf = 0).
    host_array softmax_like = floats(8, 0.125f);
    for (std::size_t i = 0; i < 3; ++i) set_float(softmax_like, i, std::nanf(""));
    set_float(softmax_like, 3, 0.0f);
    CHECK(cause_of(expected, softmax_like)
              .rfind("likely cause: NaN where the reference is finite (3 of the 4 wrong "
                     "elements): the output was added to",
                     0) == 0);
    set_float(softmax_like, 4, 0.0f);
    set_float(softmax_like, 5, 0.0f);
    set_float(softmax_like, 6, 0.0f);
    CHECK(cause_of(expected, softmax_like).empty());  // 3 of 7, fewer than half: no telling
}

TEST_CASE("mismatches exactly past the last multiple of a width are a dropped tail", "[compare][cause]") {
    const host_array expected = floats(1027, 1.0f);
    host_array got = floats(1027, 1.0f);
    for (std::size_t i = 1024; i < 1027; ++i) set_float(got, i, 0.0f);
    CHECK(cause_of(expected, got) ==
          "likely cause: only the last 3 elements (past 1024, the last multiple of 1024) are wrong: the remainder "
          "after a loop over groups of 1024 is not handled");
    host_array vector_tail = floats(1027, 1.0f);
    set_float(vector_tail, 1026, 0.0f);  // 1027 = 4 * 256 + 3, but only one of those three is wrong
    CHECK(cause_of(expected, vector_tail).empty());
}

TEST_CASE("no cause is guessed for scattered wrong values or a wrong scalar", "[compare][cause]") {
    const host_array expected = floats(1000, 1.0f);
    host_array got = floats(1000, 1.0f);
    set_float(got, 10, 3.0f);
    set_float(got, 900, 3.0f);
    CHECK(cause_of(expected, got).empty());
    CHECK(cause_of(floats(1, 36.0f), floats(1, 28.0f)).empty());
    CHECK(cause_of(expected, expected).empty());  // and nothing for a pass
}

TEST_CASE("one block of right elements among wrong ones is one block's share", "[compare][cause]") {
    host_array expected(element_type::f32, 1024);
    for (std::size_t i = 0; i < 1024; ++i) set_float(expected, i, static_cast<float>(i + 1));
    const auto only = [&](std::size_t begin, std::size_t end) {
        host_array got = floats(1024, 0.0f);
        for (std::size_t i = begin; i < end; ++i) set_float(got, i, static_cast<float>(i + 1));
        return got;
    };
    CHECK(cause_of(expected, only(256, 512)) ==
          "likely cause: the right elements are one run, [256, 512), about one block of 256; 768 of the other 768 are "
          "wrong: the other blocks' work is missing (a grid of one block, a loop that covers only blockDim.x "
          "elements, or blocks overwriting each other)");
    // Elements of the rest that agree by chance (a zero where zero is right) do not hide it.
    host_array zeros_too = expected;
    for (std::size_t i = 600; i < 1024; i += 5) set_float(zeros_too, i, 0.0f);
    CHECK(cause_of(zeros_too, only(0, 256)).rfind("likely cause: the right elements are one run, [0, 256)", 0) == 0);
    // Not one block: unaligned, three blocks' worth, or a rest that is mostly right.
    CHECK(cause_of(expected, only(100, 356)).empty());
    CHECK(cause_of(expected, only(0, 768)).empty());
    host_array mostly_right = only(0, 256);
    for (std::size_t i = 256; i < 1024; i += 2) set_float(mostly_right, i, static_cast<float>(i + 1));
    CHECK(cause_of(expected, mostly_right).empty());
}
