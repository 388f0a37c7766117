#include "judging/wrong_answer_causes.hpp"

#include "checks/sum_evidence.hpp"
#include "checks/test_data.hpp"
#include "references/timed_data.hpp"
#include "spec/element_match.hpp"
#include "spec/sum_terms.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpujudge {

namespace {

struct shift {
    std::vector<std::string> names;
    int by = 0;
};

std::string label_of(const shift& s, const scalar_values& before) {
    const char* sign = s.by > 0 ? "+" : "-";
    if (s.names.size() == 1) {
        const double value = before.at(s.names[0]);
        return fmt::format("{} {} 1 ({} instead of {})", s.names[0], sign, value + s.by, value);
    }
    std::string names;
    for (std::size_t i = 0; i < s.names.size(); ++i)
        names += (i == 0 ? "" : i + 1 == s.names.size() ? " and " : ", ") + s.names[i];
    return fmt::format("{} each {} 1", names, sign);
}

// Outputs keep their shape; inputs keep every extent but the first, which may shrink: the
// reference then reads a prefix of the test's own inputs, laid out as before.
bool keeps_layout(const problem_spec& spec, const scalar_values& before, const scalar_values& after) {
    try {
        for (const auto& param : spec.params) {
            if (!param.is_pointer) continue;
            const auto old = extents_of(param, before), now = extents_of(param, after);
            if (param.is_output() ? now != old
                                  : !std::equal(now.begin() + 1, now.end(), old.begin() + 1) || now[0] > old[0])
                return false;
        }
    } catch (const expression_error&) {
        return false;
    }
    return true;
}

bool output_wrong(const problem_spec& spec, const parameter& param, const scalar_values& scalars, double expected,
                  double got, std::uint32_t expected_bits, std::uint32_t got_bits) {
    if (param.type != element_type::f32) return !int_matches(expected_bits, got_bits);
    const tolerance tol = tolerance_for(spec, param, scalars);
    return !float_matches(expected, got, tol.atol, tol.rtol);
}

// muParser evaluates 40 to 120 ns a term: past 2^24 terms a wrong answer would wait seconds for its
// cause, so larger sums are not recomputed.
constexpr std::size_t kMaxTerms = std::size_t{1} << 24;

bool sums_affordable(const problem_spec& spec, const scalar_values& scalars) {
    return std::all_of(spec.diagnosis.sums.begin(), spec.diagnosis.sums.end(),
                       [&](const sum_spec& sum) { return term_count(spec, sum, scalars) <= kMaxTerms; });
}

}  // namespace

std::vector<shifted_scalars> shifts_for(const problem_spec& spec, const scalar_values& scalars) {
    std::vector<shift> shifts;
    for (const auto& group : spec.diagnosis.shifts)
        for (const int by : {-1, 1}) {
            for (const auto& name : group) shifts.push_back({{name}, by});
            if (group.size() > 1) shifts.push_back({group, by});
        }
    std::vector<shifted_scalars> allowed;
    for (const auto& s : shifts) {
        scalar_values after = scalars;
        for (const auto& name : s.names) after.at(name) += s.by;
        const bool seen =
            std::any_of(allowed.begin(), allowed.end(), [&](const auto& a) { return a.scalars == after; });
        if (!seen && spec.allows(after) && keeps_layout(spec, scalars, after))
            allowed.push_back({after, label_of(s, scalars)});
    }
    return allowed;
}

std::optional<cause> sum_cause(const problem_spec& spec, const scalar_values& scalars, const named_arrays& inputs,
                               const named_arrays& expected, const named_arrays& got) {
    for (const auto& param : spec.params) {
        const sum_spec* sum = spec.diagnosis.sum_for(param.name);
        if (!sum) continue;
        const host_array &want = expected.at(param.name), &have = got.at(param.name);
        if (!output_wrong(spec, param, scalars, want.value(0), have.value(0), want.bits(0), have.bits(0))) continue;
        const tolerance tol = tolerance_for(spec, param, scalars);
        try {
            sum_evidence evidence({have.value(0), want.value(0), allowed_error(want.value(0), tol.atol, tol.rtol),
                                   evaluate(sum->scale, scalars), param.type == element_type::i32});
            for_each_term_block(*sum, scalars, inputs,
                                [&](const double* terms, std::size_t count) { evidence.add(terms, count); });
            return evidence.likely_cause();
        } catch (const expression_error&) {
            return std::nullopt;  // validate refuses such a sum; a diagnosis is no place to fail
        }
    }
    return std::nullopt;
}

std::optional<cause> shift_cause(const problem_spec& spec, const scalar_values& scalars,
                                 const std::vector<shifted_scalars>& shifts, const std::vector<named_arrays>& outputs,
                                 const named_arrays& expected, const named_arrays& got) {
    std::string labels;
    for (std::size_t i = 0; i < shifts.size(); ++i)
        if (passes_as(spec, scalars, outputs[i], got) && !passes_as(spec, scalars, outputs[i], expected))
            labels += (labels.empty() ? "" : ", or with ") + shifts[i].label;
    if (labels.empty()) return std::nullopt;
    return cause{cause_kind::off_by_one,
                 fmt::format("likely cause: the output is the reference's with {}: an off-by-one bound or range (an "
                             "inclusive end read as exclusive, a loop that starts one late, one window too few)",
                             labels)};
}

void add_wrong_answer_cause(const problem_spec& spec, reference_outputs& references,
                            const std::map<int, named_arrays>& wrong_outputs, std::vector<test_report>& reports) {
    if (spec.diagnosis.empty()) return;
    test_report* failed = deciding_test(reports);
    if (!failed || failed->result != verdict::wrong_answer || failed->cause) return;
    const auto received = wrong_outputs.find(failed->index);
    if (received == wrong_outputs.end()) return;
    const named_arrays& got = received->second;
    const test_spec& test = spec.tests.at(static_cast<std::size_t>(failed->index));
    const data_set_spec data = own_data(test);
    const named_arrays expected =
        test.kind == test_kind::example
            ? literal_outputs(spec, test)
            : read_outputs(references.ensure({{failed->index, data, {}}}).front(), spec, test.scalars);
    std::optional<cause> found;
    if (!spec.diagnosis.sums.empty() && sums_affordable(spec, test.scalars))
        found = sum_cause(spec, test.scalars, host_inputs(spec, test, data), expected, got);
    const std::vector<shifted_scalars> shifts = found ? std::vector<shifted_scalars>{} : shifts_for(spec, test.scalars);
    if (!shifts.empty()) {
        std::vector<reference_outputs::item> items;
        for (const auto& s : shifts) items.push_back({failed->index, data, s.scalars});
        std::vector<named_arrays> outputs;
        for (const auto& path : references.ensure(items)) outputs.push_back(read_outputs(path, spec, test.scalars));
        found = shift_cause(spec, test.scalars, shifts, outputs, expected, got);
    }
    if (!found) return;
    failed->cause = found->kind;
    failed->message += "\n  " + found->text;
}

}  // namespace gpujudge
