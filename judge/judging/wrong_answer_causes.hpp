#pragma once
// Likely causes of a wrong answer that need more than its outputs: the test's inputs (a declared
// sum's terms, sum_evidence.hpp) or the reference again, over bounds shifted by one. Only for
// problems whose problem.yaml declares them (`diagnosis:`), and only after a wrong answer: a
// submission that passes costs nothing.
#include "references/outputs.hpp"
#include "runner/session.hpp"
#include "spec/output_file.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// A test's scalars with declared bounds shifted by one, and how to say so: "E - 1 (3 instead of 4)".
struct shifted_scalars {
    scalar_values scalars;
    std::string label;
};

// Every shift the declaration names for these scalars: each scalar of a group by -1 and +1, and a
// group of several all together; only those the constraints allow, that keep every output's shape
// and every input's layout (only its first extent may shrink: the reference reads a prefix).
std::vector<shifted_scalars> shifts_for(const problem_spec& spec, const scalar_values& scalars);

// The likely cause that the inputs show for the first wrong output declared as a sum, if any.
std::optional<cause> sum_cause(const problem_spec& spec, const scalar_values& scalars, const named_arrays& inputs,
                               const named_arrays& expected, const named_arrays& got);

// The reference's outputs for each shift, in the order of `shifts`; the labels of those that `got`
// passes for (and the test's own reference does not) make the cause.
std::optional<cause> shift_cause(const problem_spec& spec, const scalar_values& scalars,
                                 const std::vector<shifted_scalars>& shifts, const std::vector<named_arrays>& outputs,
                                 const named_arrays& expected, const named_arrays& got);

// The first test in `reports` that did not pass, when it is a wrong answer whose message names no
// cause yet: its outputs (`wrong_outputs[test]`, what the judge received), against the declared
// sums, then against the reference over shifted bounds. The cause goes into its report and message.
// A diagnosis that cannot be made (no outputs received) says nothing; a broken reference throws
// problem_error, as anywhere.
void add_wrong_answer_cause(const problem_spec& spec, reference_outputs& references,
                            const std::map<int, named_arrays>& wrong_outputs, std::vector<test_report>& reports);

}  // namespace gpujudge
