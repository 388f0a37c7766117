#include "catalog.hpp"
#include "problem_spec.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

// A valid problem.yaml; each test breaks one line of it.
const std::string kValid = R"(title: Sum
slug: sum
difficulty: easy
signature:
  - {name: input,  type: const float*, role: in,  shape: [N]}
  - {name: output, type: float*,       role: out, shape: [1]}
  - {name: N,      type: int}
constraints:
  N: [1, 1000]
inputs:
  input: {uniform: [-1, 1]}
tolerance:
  output: {atol: "N * 6e-8", rtol: 1e-5}
metrics: {bytes: "4 * N + 4"}
tests:
  examples:
    - name: ex
      scalars: {N: 2}
      inputs: {input: [1, 2]}
      expected: {output: [3]}
  functional:
    - {name: small, scalars: {N: 5}, seed: 3}
)";

std::string replaced(const std::string& from, const std::string& to) {
    std::string text = kValid;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& yaml) {
    try {
        parse_problem(yaml, "problem.yaml");
    } catch (const spec_error& error) {
        return error.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a valid problem parses with its signature and tests", "[spec]") {
    const problem_spec spec = parse_problem(kValid, "problem.yaml");
    CHECK(spec.prototype() == "extern \"C\" void solve(const float* input, float* output, int N)");
    REQUIRE(spec.tests.size() == 2);
    CHECK(spec.tests[0].kind == test_kind::example);
    CHECK(spec.tests[1].seed == 3);
    CHECK(spec.element_count(*spec.find_parameter("input"), {{"N", 5}}) == 5);
    CHECK(spec.time_limit_ms == 2000);
}

TEST_CASE("malformed problem.yaml files are refused with their line", "[spec]") {
    CHECK(error_of("title: [unclosed\n") == "problem.yaml:2: end of sequence flow not found");
    CHECK(error_of(replaced("difficulty: easy", "dificulty: easy")) ==
          "problem.yaml:3: unknown key 'dificulty' (expected one of: title, slug, difficulty, signature, constraints, "
          "conditions, inputs, tolerance, time_limit_ms, metrics, tests)");
    CHECK(error_of(replaced("title: Sum\n", "")) == "problem.yaml:1: missing required key 'title'");
    CHECK(error_of(replaced("type: const float*", "type: const double*")) ==
          "problem.yaml:5: unsupported type 'const double*' (use float, int, float*, int*, const float*, const int*)");
    CHECK(error_of(replaced("type: float*,       role: out", "type: const float*, role: out")) ==
          "problem.yaml:6: const pointer 'output' must have role in");
    CHECK(error_of(replaced("{N: 5}", "{N: 5000}")) ==
          "problem.yaml:22: test 'small': N = 5000 is outside its constraint [1, 1000]");
    CHECK(error_of(replaced("input: [1, 2]", "input: [1, 2, 3]")) ==
          "problem.yaml:19: test 'ex': 'input' has 3 values but its shape holds 2");
    CHECK(error_of(replaced("output: {atol", "input: {atol")) ==
          "problem.yaml:13: tolerance for 'input', which is not a float output");
    CHECK(error_of(replaced("{uniform: [-1, 1]}", "{gaussian: [0, 1]}")) ==
          "problem.yaml:11: unknown generator 'gaussian' for input 'input' (expected uniform, normal, integers, "
          "constant, cycle or ramp)");
    CHECK(error_of(replaced("name: small", "name: ex")) == "problem.yaml:22: duplicate test name 'ex'");
    CHECK(error_of(replaced("shape: [N]", "shape: [N +]")) ==
          "problem.yaml:17: test 'ex': bad expression 'N +': Unexpected end of expression at position 4");
}

TEST_CASE("conditions and constraint expressions are checked per test", "[spec]") {
    std::string yaml = replaced("constraints:\n  N: [1, 1000]", "constraints:\n  N: [1, 1000]\nconditions: [\"N > 3\"]");
    CHECK(error_of(yaml) == "problem.yaml:18: test 'ex': condition 'N > 3' does not hold");
}

TEST_CASE("a missing problem.yaml names the file", "[spec]") {
    CHECK_THROWS_WITH(load_problem("/nonexistent/sum"), "/nonexistent/sum/problem.yaml: cannot read the file");
}

TEST_CASE("every shipped problem parses", "[spec][catalog]") {
    const auto problems = list_problems(GPUJUDGE_SOURCE_DIR);
    CHECK(problems.size() >= 2);
    for (const auto& dir : problems) {
        INFO(dir.string());
        CHECK_NOTHROW(load_problem(dir));
    }
}
