// The likely causes the judge looks for after a wrong answer with the reference: bounds shifted by
// one, as problem.yaml declares them (wrong_answer_causes.hpp).
#include "judging/wrong_answer_causes.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

// A window [S, E] of a matrix's rows, with N rows of M columns.
const std::string kWindow = R"(title: Window
slug: window
difficulty: easy
signature:
  - {name: input,  type: const int*, role: in,  shape: [N, M]}
  - {name: output, type: int*,       role: out, shape: [1]}
  - {name: N,      type: int}
  - {name: M,      type: int}
  - {name: S,      type: int}
  - {name: E,      type: int}
constraints:
  N: [1, 100]
  M: [1, 100]
  S: [0, "N - 1"]
  E: [S, "N - 1"]
inputs:
  input: {integers: [1, 10]}
metrics: {bytes: "4 * N * M"}
tests:
  examples:
    - name: ex
      scalars: {N: 2, M: 1, S: 0, E: 1}
      inputs: {input: [1, 2]}
      expected: {output: [3]}
  functional:
    - {name: small, scalars: {N: 3, M: 2, S: 1, E: 2}}
diagnosis:
  shifts: [N, M, [S, E]]
)";

std::vector<std::string> labels(const std::vector<shifted_scalars>& shifts) {
    std::vector<std::string> out;
    for (const auto& s : shifts) out.push_back(s.label);
    return out;
}

named_arrays one_int(int value) {
    host_array array(element_type::i32, 1);
    array.set(0, value);
    named_arrays arrays;
    arrays.emplace("output", std::move(array));
    return arrays;
}

}  // namespace

TEST_CASE("bounds are shifted by one alone and by group, where the constraints and the layout allow", "[cause]") {
    const problem_spec spec = parse_problem(kWindow, "problem.yaml");
    // N + 1 would read past the input and M - 1 change its rows' layout; N - 1 and E + 1 would leave E
    // past the last row, S - 1 (alone or with E) before the first.
    CHECK(labels(shifts_for(spec, {{"N", 10}, {"M", 4}, {"S", 0}, {"E", 9}})) ==
          std::vector<std::string>{"E - 1 (8 instead of 9)", "S + 1 (1 instead of 0)"});
    CHECK(labels(shifts_for(spec, {{"N", 10}, {"M", 4}, {"S", 2}, {"E", 5}})) ==
          std::vector<std::string>{"N - 1 (9 instead of 10)", "S - 1 (1 instead of 2)", "E - 1 (4 instead of 5)",
                                   "S and E each - 1", "S + 1 (3 instead of 2)", "E + 1 (6 instead of 5)",
                                   "S and E each + 1"});
}

TEST_CASE("a wrong output equal to the reference over shifted bounds is an off-by-one", "[cause]") {
    const problem_spec spec = parse_problem(kWindow, "problem.yaml");
    const scalar_values scalars{{"N", 10}, {"M", 1}, {"S", 2}, {"E", 5}};
    const auto shifts = shifts_for(spec, scalars);
    std::vector<named_arrays> outputs;
    for (std::size_t i = 0; i < shifts.size(); ++i) outputs.push_back(one_int(100 + static_cast<int>(i)));
    const auto found = shift_cause(spec, scalars, shifts, outputs, one_int(7), one_int(102));
    REQUIRE(found);
    CHECK(found->kind == cause_kind::off_by_one);
    CHECK(found->text ==
          "likely cause: the output is the reference's with E - 1 (4 instead of 5): an off-by-one bound or range (an "
          "inclusive end read as exclusive, a loop that starts one late, one window too few)");
    outputs[4] = one_int(102);  // two shifts give the same value: both are named
    CHECK(shift_cause(spec, scalars, shifts, outputs, one_int(7), one_int(102))
              ->text.find("with E - 1 (4 instead of 5), or with S + 1 (3 instead of 2):") != std::string::npos);
    CHECK_FALSE(shift_cause(spec, scalars, shifts, outputs, one_int(7), one_int(99)));
    // A shift that changes nothing (the reference's own value) explains nothing.
    outputs[0] = one_int(7);
    CHECK_FALSE(shift_cause(spec, scalars, {shifts[0]}, {outputs[0]}, one_int(7), one_int(7)));
}
