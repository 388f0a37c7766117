#include "catalog/catalog.hpp"
#include "spec/problem_spec.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

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

std::string replaced(std::string text, const std::string& from, const std::string& to) {
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

TEST_CASE("the bytes solve only writes: out buffers, not inout ones", "[spec]") {
    const problem_spec sum = parse_problem(kValid, "problem.yaml");
    CHECK(sum.write_only_bytes({{"N", 5}}) == 4);
    std::string in_place = replaced("{name: input,  type: const float*, role: in,  shape: [N]}",
                                    "{name: input,  type: float*, role: inout,  shape: [N]}");
    in_place = replaced(in_place, "  output: {atol: \"N * 6e-8\", rtol: 1e-5}",
                        "  output: {atol: \"N * 6e-8\", rtol: 1e-5}\n  input: {atol: 0, rtol: 0}");
    in_place = replaced(in_place, "expected: {output: [3]}", "expected: {output: [3], input: [1, 2]}");
    const problem_spec spec = parse_problem(in_place, "problem.yaml");
    CHECK(spec.write_only_bytes({{"N", 5}}) == 4);  // the inout input is read from DRAM as well
}

TEST_CASE("malformed problem.yaml files are refused with their line", "[spec]") {
    CHECK(error_of("title: [unclosed\n") == "problem.yaml:2: end of sequence flow not found");
    CHECK(error_of(replaced("difficulty: easy", "dificulty: easy")) ==
          "problem.yaml:3: unknown key 'dificulty' (expected one of: title, slug, difficulty, signature, constraints, "
          "conditions, inputs, tolerance, time_limit_ms, metrics, tests, diagnosis)");
    CHECK(error_of(replaced("title: Sum\n", "")) == "problem.yaml:1: missing required key 'title'");
    // A list or a mapping where one value belongs names the key it was written under.
    CHECK(error_of(replaced("difficulty: easy", "difficulty: [easy]")) ==
          "problem.yaml:3: 'difficulty': expected a single value, found a list");
    CHECK(error_of(replaced("difficulty: easy", "difficulty: {level: easy}")) ==
          "problem.yaml:3: 'difficulty': expected a single value, found a mapping");
    CHECK(error_of(replaced("difficulty: easy", "difficulty:")) ==
          "problem.yaml:3: 'difficulty': expected a single value, found none");
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
    CHECK(error_of(replaced("slug: sum", "slug: Bad-Slug")) ==
          "problem.yaml:2: slug 'Bad-Slug' must be lower-case letters, digits, '_' or '-'");
    CHECK(error_of(replaced("slug: sum", "slug: my.prob")) ==
          "problem.yaml:2: slug 'my.prob' must be lower-case letters, digits, '_' or '-'");
}

TEST_CASE("expressions are checked where they are written, against the scalar names", "[spec]") {
    CHECK(error_of(replaced("shape: [N]", "shape: [M]")) == "problem.yaml:5: shape of 'input' uses unknown scalar 'M'");
    CHECK(error_of(replaced("shape: [N]", "shape: [N +]")) ==
          "problem.yaml:5: shape of 'input': bad expression 'N +': Unexpected end of expression at position 4");
    CHECK(error_of(replaced("N: [1, 1000]", "N: [1, M]")) ==
          "problem.yaml:9: constraint on 'N' uses unknown scalar 'M'");
    CHECK(error_of(replaced("N: [1, 1000]", "N: [10, 5]")) == "problem.yaml:9: constraint on 'N': min 10 > max 5");
    CHECK(error_of(replaced("inputs:\n  input", "conditions: [\"N < M\"]\ninputs:\n  input")) ==
          "problem.yaml:10: condition uses unknown scalar 'M'");
    CHECK(error_of(replaced("{uniform: [-1, 1]}", "{uniform: [-1, M]}")) ==
          "problem.yaml:11: uniform of 'input' uses unknown scalar 'M'");
    CHECK(
        error_of(replaced("atol: \"N * 6e-8\"", "atol: \"N * 6e-8 *\"")) ==
        "problem.yaml:13: tolerance of 'output': bad expression 'N * 6e-8 *': Unexpected end of expression at position "
        "11");
    CHECK(error_of(replaced("rtol: 1e-5", "rtol: eps")) ==
          "problem.yaml:13: tolerance of 'output' uses unknown scalar 'eps'");
    CHECK(error_of(replaced("bytes: \"4 * N + 4\"", "bytes: \"4 * M\"")) ==
          "problem.yaml:14: metrics 'bytes' uses unknown scalar 'M'");
    // A buffer is no scalar: its name in a shape is refused like any unknown one.
    CHECK(error_of(replaced("shape: [1]", "shape: [input]")) ==
          "problem.yaml:6: shape of 'output' uses unknown scalar 'input'");
    // Shapes may name a scalar declared after the buffer.
    CHECK_NOTHROW(parse_problem(kValid, "problem.yaml"));
}

TEST_CASE("per-test values of the expressions are checked at the test's line", "[spec]") {
    CHECK(error_of(replaced("N: [1, 1000]", "N: [1, \"1000 / (N - 2)\"]")) ==
          "problem.yaml:17: test 'ex': expression '1000 / (N - 2)' is not finite");
    const problem_spec spec = parse_problem(kValid, "problem.yaml");
    parameter cube = *spec.find_parameter("input");
    cube.shape = {"N", "N", "N"};
    CHECK(spec.element_count(cube, {{"N", 2e5}}) == 8'000'000'000'000'000ull);
    CHECK_THROWS_WITH(spec.element_count(cube, {{"N", 1e6}}),
                      "buffer 'input' would hold more than 9000000000000000 elements");
}

TEST_CASE("int scalars must fit in an int", "[spec]") {
    CHECK(error_of(replaced("N: [1, 1000]", "N: [1, 1e12]")) ==
          "problem.yaml:9: constraint on 'N': max 1000000000000 does not fit in an int");
    CHECK(error_of(replaced("N: [1, 1000]", "N: [-2147483649, 1000]")) ==
          "problem.yaml:9: constraint on 'N': min -2147483649 does not fit in an int");
    CHECK(error_of(replaced("{N: 5}", "{N: 1e12}")) ==
          "problem.yaml:22: test 'small': N = 1000000000000 does not fit in an int");
    CHECK(error_of(replaced("{N: 5}", "{N: 2.5}")) == "problem.yaml:22: test 'small': N = 2.5 is not a whole number");
    CHECK_NOTHROW(parse_problem(replaced("N: [1, 1000]", "N: [1, 2147483647]"), "problem.yaml"));
}

TEST_CASE("seeds are whole numbers up to 2^64 - 1, read without rounding", "[spec]") {
    CHECK(error_of(replaced("seed: 3", "seed: 99999999999999999999999")) ==
          "problem.yaml:22: seed must be a whole number in [0, 18446744073709551615], not '99999999999999999999999'");
    CHECK(error_of(replaced("seed: 3", "seed: -1")) ==
          "problem.yaml:22: seed must be a whole number in [0, 18446744073709551615], not '-1'");
    CHECK(error_of(replaced("seed: 3", "seed: 1.5")) ==
          "problem.yaml:22: seed must be a whole number in [0, 18446744073709551615], not '1.5'");
    const problem_spec spec = parse_problem(replaced("seed: 3", "seed: 18446744073709551615"), "problem.yaml");
    CHECK(spec.tests[1].seed == 18446744073709551615ull);
    // Through double, this seed would read as 2^53.
    CHECK(parse_problem(replaced("seed: 3", "seed: 9007199254740993"), "problem.yaml").tests[1].seed ==
          9007199254740993ull);
}

TEST_CASE("time_limit_ms is a number of milliseconds in [1, 60000]", "[spec]") {
    const std::string with_limit = replaced("metrics:", "time_limit_ms: 0\nmetrics:");
    for (const char* refused : {"0", ".inf", "0.5", "60001", "1e308", "-5"})
        CHECK(error_of(replaced(with_limit, "time_limit_ms: 0", std::string("time_limit_ms: ") + refused)) ==
              fmt::format("problem.yaml:14: time_limit_ms must be a number of milliseconds in [1, 60000], not '{}'",
                          refused));
    for (const double accepted : {1.0, 250.0, 60000.0})
        CHECK(parse_problem(replaced(with_limit, "time_limit_ms: 0", fmt::format("time_limit_ms: {}", accepted)),
                            "problem.yaml")
                  .time_limit_ms == accepted);
}

TEST_CASE("examples may hold NaN and infinities for floats, in YAML's or C's spelling", "[spec]") {
    const problem_spec spec = parse_problem(
        replaced(replaced("input: [1, 2]", "input: [.nan, -.inf]"), "output: [3]", "output: [nan]"), "problem.yaml");
    const auto& input = spec.tests[0].inputs.at("input").values;
    CHECK(std::isnan(input[0]));
    CHECK(input[1] == -HUGE_VAL);
    CHECK(std::isnan(spec.tests[0].expected.at("output")[0]));
    CHECK(parse_problem(replaced("output: [3]", "output: [.Inf]"), "problem.yaml").tests[0].expected.at("output")[0] ==
          HUGE_VAL);
    CHECK(parse_problem(replaced("output: [3]", "output: [-inf]"), "problem.yaml").tests[0].expected.at("output")[0] ==
          -HUGE_VAL);
}

TEST_CASE("int buffers take whole numbers only", "[spec]") {
    const std::string ints = replaced(replaced(kValid, "type: const float*", "type: const int*"), "{uniform: [-1, 1]}",
                                      "{integers: [-1, 1]}");
    CHECK_NOTHROW(parse_problem(ints, "problem.yaml"));
    CHECK(error_of(replaced(ints, "input: [1, 2]", "input: [1, .nan]")) ==
          "problem.yaml:19: test 'ex': 'input' holds int: .nan is not an int");
    CHECK(error_of(replaced(ints, "input: [1, 2]", "input: [-inf, 2]")) ==
          "problem.yaml:19: test 'ex': 'input' holds int: -inf is not an int");
    CHECK(error_of(replaced(ints, "input: [1, 2]", "input: [1, 2.5]")) ==
          "problem.yaml:19: test 'ex': 'input' holds int: 2.5 is not an int");
    CHECK(error_of(replaced(ints, "input: [1, 2]", "input: [1, 3000000000]")) ==
          "problem.yaml:19: test 'ex': 'input' holds int: 3000000000 is not an int");
}

TEST_CASE("conditions and constraint expressions are checked per test", "[spec]") {
    std::string yaml =
        replaced("constraints:\n  N: [1, 1000]", "constraints:\n  N: [1, 1000]\nconditions: [\"N > 3\"]");
    CHECK(error_of(yaml) == "problem.yaml:18: test 'ex': condition 'N > 3' does not hold");
}

TEST_CASE("diagnosis declares sums and shifts, checked where they are written", "[spec][cause]") {
    const std::string with = kValid + "diagnosis:\n  sums:\n    output: {terms: input}\n  shifts: [N]\n";
    const problem_spec spec = parse_problem(with, "problem.yaml");
    REQUIRE(spec.diagnosis.sums.size() == 1);
    CHECK(spec.diagnosis.sum_for("output")->inputs == std::vector<std::string>{"input"});
    CHECK(spec.diagnosis.sum_for("output")->scale == "1");
    CHECK(spec.diagnosis.shifts == std::vector<std::vector<std::string>>{{"N"}});
    const auto sum_error = [&](const std::string& declaration) {
        return error_of(replaced(with, "output: {terms: input}", declaration));
    };
    CHECK(sum_error("result: {terms: input}") == "problem.yaml:25: diagnosis: 'result' is not an output of solve");
    CHECK(sum_error("input: {terms: input}") == "problem.yaml:25: diagnosis: 'input' is not an output of solve");
    CHECK(sum_error("output: {terms: \"input * M\"}") ==
          "problem.yaml:25: diagnosis: terms of 'output' use 'M', which is neither an input buffer nor a scalar");
    CHECK(sum_error("output: {terms: N}") == "problem.yaml:25: diagnosis: terms of 'output' read no input buffer");
    CHECK(sum_error("output: {terms: input, scale: \"1 / M\"}") ==
          "problem.yaml:25: diagnosis: scale of 'output' uses unknown scalar 'M'");
    CHECK(sum_error("output: {terms: input, weight: 2}") ==
          "problem.yaml:25: unknown key 'weight' (expected one of: terms, scale)");
    // The examples check the declaration: a wrong sum would name wrong causes.
    CHECK(sum_error("output: {terms: \"2 * input\"}") ==
          "problem.yaml:25: diagnosis: the sum declared for 'output' gives 6 on example 'ex', which expects 3");
    CHECK(error_of(replaced(with, "shifts: [N]", "shifts: [N, input]")) ==
          "problem.yaml:26: diagnosis: shift of 'input', which is not an int scalar");
    CHECK(error_of(replaced(with, "shifts: [N]", "shifts: N")) ==
          "problem.yaml:26: diagnosis: shifts must list int scalars, or lists of them to shift together");
    CHECK(error_of(replaced(with, "  shifts: [N]", "  shift: [N]")) ==
          "problem.yaml:26: unknown key 'shift' (expected one of: sums, shifts)");
    // Terms read element i of every input they name: the inputs must have one shape.
    std::string two =
        replaced(with, "  - {name: N,", "  - {name: w, type: const float*, role: in, shape: [1]}\n  - {name: N,");
    two = replaced(two, "input: {uniform: [-1, 1]}", "input: {uniform: [-1, 1]}\n  w: {constant: 1}");
    two = replaced(two, "inputs: {input: [1, 2]}", "inputs: {input: [1, 2], w: [1]}");
    CHECK(error_of(replaced(two, "output: {terms: input}", "output: {terms: \"input * w\"}")) ==
          "problem.yaml:27: diagnosis: terms of 'output' read 'input' and 'w', whose shapes differ");
}

TEST_CASE("a missing problem.yaml names the file", "[spec]") {
    CHECK_THROWS_WITH(load_problem("/nonexistent/sum"), "/nonexistent/sum/problem.yaml: cannot read the file");
}

TEST_CASE("a slug that is not the folder's name is refused at the slug's line", "[spec]") {
    const std::string dir = GPUJUDGE_TEST_FIXTURES "/broken_problems/slug_mismatch";
    CHECK_THROWS_WITH(load_problem(dir),
                      dir + "/problem.yaml:3: slug 'tiny_sum' must equal the folder name 'slug_mismatch'");
}

// tests/fixtures/broken_problems/<variant>/: a copy of tiny_sum with one mistake, and expected_error.txt,
// the first line of the error with the path relative to the variant's folder ("problem.yaml:LINE:
// message"). Variants whose mistake is in reference.cpp ("reference.cpp: message") load: validate
// refuses them when it runs the reference (test_broken_problems.cpp); benchmark_beyond_memory too.
TEST_CASE("every broken problem is refused with its message", "[spec]") {
    std::vector<std::filesystem::path> variants;
    for (const auto& entry : std::filesystem::directory_iterator(GPUJUDGE_TEST_FIXTURES "/broken_problems"))
        variants.push_back(entry.path());
    std::sort(variants.begin(), variants.end());
    CHECK(variants.size() >= 22);
    for (const auto& dir : variants) {
        INFO(dir.filename().string());
        std::ifstream file(dir / "expected_error.txt");
        std::string expected;
        std::getline(file, expected);
        REQUIRE(!expected.empty());
        std::string error = "no error";
        // A reference's mistakes, and a test larger than the machine, are validate's to find.
        if (expected.rfind("reference.cpp: ", 0) == 0 || dir.filename() == "benchmark_beyond_memory") {
            CHECK_NOTHROW(load_problem(dir));
            continue;
        }
        try {
            load_problem(dir);
        } catch (const spec_error& thrown) {
            error = thrown.what();
        }
        const std::string prefix = dir.string() + "/";
        if (error.rfind(prefix, 0) == 0) error.erase(0, prefix.size());
        CHECK(error == expected);
    }
}

TEST_CASE("every shipped problem parses", "[spec][catalog]") {
    const auto problems = list_problems(GPUJUDGE_SOURCE_DIR);
    CHECK(problems.size() >= 2);
    for (const auto& dir : problems) {
        INFO(dir.string());
        CHECK_NOTHROW(load_problem(dir));
    }
}

TEST_CASE("a float's largest value, as NumPy prints it, is a float, and past it is refused", "[spec]") {
    // 3.4028235e38 is a little above the double FLT_MAX and rounds to it: refused, its message said it
    // was beyond 3.40282e+38.
    std::string yaml = kValid;
    const std::string bounds = "uniform: [-1, 1]";
    REQUIRE(yaml.find(bounds) != std::string::npos);
    CHECK_NOTHROW(parse_problem(
        std::string(yaml).replace(yaml.find(bounds), bounds.size(), "uniform: [-3.4028235e38, 3.4028235e38]"),
        "problem.yaml"));
    CHECK_THROWS_WITH(
        parse_problem(yaml.replace(yaml.find(bounds), bounds.size(), "uniform: [-3.5e38, 3.4e38]"), "problem.yaml"),
        Catch::Contains("its uniform generator makes -3.5e+38, beyond the type's range"));
}
