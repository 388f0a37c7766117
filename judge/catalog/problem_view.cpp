#include "catalog/problem_view.hpp"

#include "base/file_text.hpp"
#include "catalog/starter.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// Shortest text that reads back as the same number: what problem.yaml holds, not a rounding of it.
std::string format_value(double value, element_type type) {
    if (type == element_type::i32) return fmt::format("{}", static_cast<long long>(value));
    return fmt::format("{}", value);
}

// Nested lists by the parameter's shape: [[1, 2], [3, 4]] for a 2 x 2 matrix.
std::string format_nested(const std::vector<double>& values, element_type type, const std::vector<std::size_t>& dims,
                          std::size_t dim, std::size_t& next) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims[dim]; ++i) {
        if (i) text += ", ";
        text += dim + 1 < dims.size() ? format_nested(values, type, dims, dim + 1, next)
                                      : format_value(values.at(next++), type);
    }
    return text + "]";
}

std::string format_array(const parameter& param, const std::vector<double>& values, const scalar_values& scalars) {
    std::vector<std::size_t> dims;
    for (const auto& extent : param.shape) dims.push_back(static_cast<std::size_t>(evaluate_count(extent, scalars)));
    std::size_t next = 0;
    return format_nested(values, param.type, dims, 0, next);
}

}  // namespace

std::string statement_prose(const problem_spec& spec) {
    std::string prose = read_file_text(spec.dir / "statement.md").value_or("");
    prose.erase(prose.find_last_not_of('\n') + 1);
    return prose;
}

std::vector<std::string> constraint_lines(const problem_spec& spec) {
    std::vector<std::string> lines;
    for (const auto& param : spec.params)
        if (!param.is_pointer) {
            const range_spec& range = spec.constraints.at(param.name);
            lines.push_back(fmt::format("{} ≤ {} ≤ {}", range.min, param.name, range.max));
        }
    for (const auto& [condition, line] : spec.conditions) lines.push_back(condition);
    lines.push_back(fmt::format("time limit: {} ms per call of solve", spec.time_limit_ms));
    return lines;
}

std::string example_text(const problem_spec& spec, const test_spec& test) {
    std::string text = fmt::format("{}:\n", test.name);
    for (const auto& param : spec.params) {
        if (!param.is_pointer)
            text += fmt::format("  {} = {}\n", param.name, format_value(test.scalars.at(param.name), param.type));
        else if (param.is_input())
            text += fmt::format("  {} = {}\n", param.name,
                                format_array(param, test.inputs.at(param.name).values, test.scalars));
    }
    for (const auto& param : spec.params)
        if (param.is_output())
            text += fmt::format("  → {} = {}\n", param.name,
                                format_array(param, test.expected.at(param.name), test.scalars));
    return text;
}

std::string problem_text(const problem_spec& spec) {
    std::string text =
        fmt::format("{}\n\n## Signature\n  {}\n  {}  # a .py solution (PyTorch, Triton)\n\n## Constraints\n",
                    statement_prose(spec), spec.prototype(), python_signature(spec));
    for (const auto& line : constraint_lines(spec)) text += fmt::format("- {}\n", line);
    text += "\n## Examples\n";
    bool first = true;
    for (const auto& test : spec.tests) {
        if (test.kind != test_kind::example) continue;
        text += (first ? "" : "\n") + example_text(spec, test);
        first = false;
    }
    return text;
}

}  // namespace gpujudge
