// Arithmetic of a problem's scalars: values, counts, and errors that name the expression.
#include "spec/expression.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

std::string error_of(const std::function<void()>& evaluation) {
    try {
        evaluation();
    } catch (const expression_error& error) {
        return error.what();
    }
    return "(no error)";
}

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("expressions evaluate with the scalars' values", "[expression]") {
    const scalar_values scalars{{"N", 1000}, {"C", 3}, {"eps", 1e-5}};
    CHECK(evaluate("4 * N + 4", scalars) == 4004);
    CHECK(evaluate("(N - C) / 2", scalars) == 498.5);
    CHECK(evaluate("eps", scalars) == 1e-5);
    CHECK(evaluate("2^10", {}) == 1024);
    CHECK(evaluate("1000 * N * 6e-8", scalars) == Approx(0.06));
}

TEST_CASE("an unknown scalar, a syntax error or a non-finite value is an error naming the expression", "[expression]") {
    const scalar_values scalars{{"N", 8}};
    const std::string unknown = error_of([&] { evaluate("M * 4", scalars); });
    CHECK(starts_with(unknown, "bad expression 'M * 4': "));
    CHECK(unknown.find("\"M\"") != std::string::npos);
    CHECK(starts_with(error_of([&] { evaluate("N +* 2", scalars); }), "bad expression 'N +* 2': "));
    CHECK(starts_with(error_of([&] { evaluate("(N", scalars); }), "bad expression '(N': "));
    CHECK(error_of([&] { evaluate("1 / (N - 8)", scalars); }) == "expression '1 / (N - 8)' is not finite");
}

TEST_CASE("counts are whole, non-negative and bounded", "[expression]") {
    const scalar_values scalars{{"N", 6}, {"M", 4}};
    CHECK(evaluate_count("N * M", scalars) == 24);
    CHECK(evaluate_count("N - 6", scalars) == 0);
    CHECK(error_of([&] { evaluate_count("N / M", scalars); }) ==
          "expression 'N / M' must be a whole non-negative number, got 1.5");
    CHECK(error_of([&] { evaluate_count("M - N", scalars); }) ==
          "expression 'M - N' must be a whole non-negative number, got -2");
    CHECK(evaluate_count("9000000000000000", {}) == max_count);
    CHECK(error_of([&] { evaluate_count("9000000000000001", {}); }) ==
          "expression '9000000000000001' = 9000000000000001 exceeds 9000000000000000");
}

TEST_CASE("variables_of lists the names an expression uses without evaluating it", "[expression]") {
    CHECK(variables_of("4 * (E - S + 1) + 4") == std::set<std::string>{"E", "S"});
    CHECK(variables_of("42").empty());
    CHECK(starts_with(error_of([] { variables_of("N +* 2"); }), "bad expression 'N +* 2': "));
}

TEST_CASE("an expression that assigns is refused: a condition 'N = 3' held for every N", "[expression]") {
    const scalar_values scalars{{"N", 5}};
    CHECK(error_of([&] { evaluate("N = 3", scalars); }) == "expression 'N = 3' assigns (=): write == to compare");
    CHECK(error_of([&] { variables_of("N += 1"); }) == "expression 'N += 1' assigns (+=): write == to compare");
    CHECK(evaluate("N == 5", scalars) == 1);
    CHECK(evaluate("N <= 3 || N >= 5", scalars) == 1);
    CHECK(evaluate("N != 3", scalars) == 1);
}
