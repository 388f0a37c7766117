// The likely causes of a wrong sum that its terms show (sum_evidence.hpp): each rule fires on its
// pattern and stays silent on near misses, on logic errors of the same size, and on matches that
// chance explains as well.
#include "checks/sum_evidence.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace gpujudge;

namespace {

std::vector<double> uniform_terms(std::size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(static_cast<float>(lo), static_cast<float>(hi));
    std::vector<double> terms(n);
    for (auto& t : terms) t = value(rng);  // float inputs, as the GPU reads them
    return terms;
}

double exact(const std::vector<double>& terms, std::size_t begin = 0, std::size_t end = SIZE_MAX) {
    double sum = 0;
    for (std::size_t i = begin; i < std::min(end, terms.size()); ++i) sum += terms[i];
    return sum;
}

// float32 pairwise: a correct parallel order.
float tree(const std::vector<double>& terms, std::size_t begin, std::size_t end) {
    if (end - begin == 1) return static_cast<float>(terms[begin]);
    const std::size_t mid = begin + (end - begin) / 2;
    return tree(terms, begin, mid) + tree(terms, mid, end);
}

// A half-precision tree, as a warp's __hadd shuffle reduction computes over its lanes.
double half_tree(const std::vector<double>& terms, std::size_t begin, std::size_t end) {
    if (end - begin == 1) return round_to_half(terms[begin]);
    const std::size_t mid = begin + (end - begin) / 2;
    return round_to_half(half_tree(terms, begin, mid) + half_tree(terms, mid, end));
}

// The reduction's tolerance: atol u * max|x| * N, rtol 1e-5.
double tolerance_of(const std::vector<double>& terms, double expected, double max_abs) {
    return max_abs * static_cast<double>(terms.size()) * 6e-8 + 1e-5 * std::fabs(expected);
}

std::optional<cause> cause_for(const std::vector<double>& terms, double got, double expected, double tolerance,
                               double scale = 1, bool integer = false) {
    sum_evidence evidence({got, expected, tolerance, scale, integer});
    for (std::size_t begin = 0; begin < terms.size(); begin += 777)  // blocks that cross every chunk boundary
        evidence.add(terms.data() + begin, std::min<std::size_t>(777, terms.size() - begin));
    return evidence.likely_cause();
}

std::string text_of(const std::optional<cause>& found) {
    return found ? found->text : "";
}

std::optional<cause_kind> kind_of(const std::optional<cause>& found) {
    return found ? std::optional<cause_kind>(found->kind) : std::nullopt;
}

}  // namespace

TEST_CASE("half precision rounds as __float2half does: 11 significant bits, ties to even, overflow past 65504",
          "[cause]") {
    CHECK(round_to_half(1.0 / 3) == 0.333251953125);
    CHECK(round_to_half(2049) == 2048);  // a tie: to the even neighbour
    CHECK(round_to_half(2051) == 2052);
    CHECK(round_to_half(-123.456) == -123.4375);
    CHECK(round_to_half(65519) == 65504);
    CHECK(std::isinf(round_to_half(65520)));
    CHECK(round_to_half(3e-8) == std::ldexp(1.0, -24));  // the smallest subnormal
    CHECK(round_to_half(2e-8) == 0);
    CHECK(round_to_half(0) == 0);
}

TEST_CASE("a sum that holds one block's chunk of the terms is one block's share", "[cause]") {
    const auto terms = uniform_terms(1000, -1000, 1000, 1);
    const double expected = exact(terms);
    const double tol = tolerance_of(terms, expected, 1000);
    CHECK(text_of(cause_for(terms, static_cast<float>(exact(terms, 512, 1000)), expected, tol)) ==
          "likely cause: the value is that of terms [512, 1000) alone, one block's share (488 of the 1000): the other "
          "blocks' shares are missing (a grid of one block, a loop that covers only blockDim.x elements, or each "
          "block storing its partial result over the others' instead of adding it)");
    CHECK(text_of(cause_for(terms, tree(terms, 0, 256), expected, tol))
              .rfind("likely cause: the value is that of terms [0, 256) alone", 0) == 0);
    CHECK(text_of(cause_for(terms, tree(terms, 256, 320), expected, tol))
              .rfind("likely cause: the value is that of terms [256, 320) alone", 0) == 0);
}

TEST_CASE("a sum that misses the terms past the last multiple of a width is a dropped tail", "[cause]") {
    const auto terms = uniform_terms(1027, -1000, 1000, 2);
    const double expected = exact(terms);
    CHECK(text_of(cause_for(terms, tree(terms, 0, 1024), expected, tolerance_of(terms, expected, 1000))) ==
          "likely cause: the value is that of the first 1024 of the 1027 terms (the last multiple of 4), without the 3 "
          "after them: the remainder after a loop over groups of 4 is not handled");
}

TEST_CASE("a match that chance explains as well says nothing", "[cause]") {
    // A million terms and a tolerance of 63: some chunk of 32 lies within it of almost any value.
    const auto terms = uniform_terms(1 << 20, -1000, 1000, 3);
    const double expected = exact(terms);
    const double tol = tolerance_of(terms, expected, 1000);
    CHECK_FALSE(cause_for(terms, tree(terms, 32 * 1000, 32 * 1001), expected, tol));
    // Counts: a chunk's count is a small number that many chunks share.
    std::vector<double> flags(4096);
    for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = i % 7 == 0;
    CHECK_FALSE(cause_for(flags, exact(flags) - 3, exact(flags), 0, 1, true));
    // ...but the first block's count of a large input is one candidate among few.
    CHECK(kind_of(cause_for(flags, exact(flags, 0, 1024), exact(flags), 0, 1, true)) == cause_kind::one_block);
}

TEST_CASE("an error the size of float32 one at a time is named, not a logic error of another size", "[cause]") {
    const std::vector<double> terms(65537, 999.5);  // the reduction's 'all equal' test
    const double expected = exact(terms);
    const double tol = tolerance_of(terms, expected, 1000);
    float in_order = 0;
    for (const double t : terms) in_order += static_cast<float>(t);
    CHECK(text_of(cause_for(terms, in_order, expected, tol)) ==
          "likely cause: the error, 2.86e+04, is the size of summing these 65537 terms in float32 one at a time "
          "(2.86e+04): a long float32 running sum (one thread's loop, or an atomicAdd per element into one value) "
          "loses the low bits of every term; add partial sums in a tree, or accumulate in double");
    CHECK_FALSE(cause_for(terms, tree(terms, 0, terms.size()), expected, tol));  // a tree: right
    CHECK_FALSE(cause_for(terms, expected - 999.5, expected, tol));              // one element dropped
    CHECK_FALSE(cause_for(terms, expected * 65536 / 65537, expected, tol));      // N - 1 for N
}

TEST_CASE("an error the size of half precision is named, not a logic error of that size", "[cause]") {
    SECTION("one term rounded to half") {
        const std::vector<double> one{-91.37298583984375};
        CHECK(kind_of(cause_for(one, round_to_half(one[0]), one[0], tolerance_of(one, one[0], 1000))) ==
              cause_kind::half_precision);
    }
    SECTION("a thousand terms summed in half-precision trees of 32, then in float") {
        const auto terms = uniform_terms(1000, -1000, 1000, 4);
        const double expected = exact(terms);
        const double tol = tolerance_of(terms, expected, 1000);
        float got = 0;
        for (std::size_t begin = 0; begin < terms.size(); begin += 32)
            got += static_cast<float>(half_tree(terms, begin, std::min<std::size_t>(begin + 32, terms.size())));
        CHECK(kind_of(cause_for(terms, got, expected, tol)) == cause_kind::half_precision);
        // The same error size from a logic error: one term left out, a wrong constant; and a near miss.
        const std::size_t k = std::min_element(terms.begin(), terms.end(),
                                               [&](double a, double b) {
                                                   return std::fabs(std::fabs(a) - std::fabs(got - expected)) <
                                                          std::fabs(std::fabs(b) - std::fabs(got - expected));
                                               }) -
                              terms.begin();
        const double dropped = tree(terms, 0, k) + tree(terms, k + 1, terms.size());
        CHECK_FALSE(cause_for(terms, dropped, expected, tol));
        // ...while an error of that size that no term explains is half precision's: the window holds it.
        CHECK(kind_of(cause_for(terms, expected + (dropped - expected) * 1.1, expected, tol)) ==
              cause_kind::half_precision);
        CHECK_FALSE(cause_for(terms, expected * 999 / 1000, expected, tol));
        CHECK_FALSE(cause_for(terms, expected + 1.5 * tol, expected, tol));
    }
}

TEST_CASE("correct sums in any order stay silent, even at the tolerance's edge", "[cause]") {
    const auto terms = uniform_terms(100000, -1000, 1000, 5);
    const double expected = exact(terms);
    const double got = tree(terms, 0, terms.size());
    const double error = std::fabs(got - expected);
    REQUIRE(error > 0);
    // Passing: nothing to say. Failing a tolerance just under its error: a near miss, nothing either.
    CHECK_FALSE(cause_for(terms, got, expected, tolerance_of(terms, expected, 1000)));
    CHECK_FALSE(cause_for(terms, got, expected, error * 0.6));
}
