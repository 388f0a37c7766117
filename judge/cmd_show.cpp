#include "commands.hpp"
#include "exit_codes.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace gpujudge {

namespace {

std::string format_values(const std::vector<double>& values) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i == 16) return text + ", ...]";
        text += fmt::format("{}{:g}", i ? ", " : "[", values[i]);
    }
    return text + "]";
}

void print_problem(const problem_spec& spec) {
    std::ifstream statement(spec.dir / "statement.md");
    std::stringstream text;
    text << statement.rdbuf();
    fmt::print("{}\n", text.str());
    fmt::print("## Signature\n  {}\n\n## Constraints\n", spec.prototype());
    for (const auto& param : spec.params)
        if (!param.is_pointer) {
            const range_spec& range = spec.constraints.at(param.name);
            fmt::print("  {} <= {} <= {}\n", range.min, param.name, range.max);
        }
    for (const auto& [condition, line] : spec.conditions) fmt::print("  {}\n", condition);
    fmt::print("  time limit: {:g} ms per call of solve\n\n## Examples\n", spec.time_limit_ms);
    for (const auto& test : spec.tests) {
        if (test.kind != test_kind::example) continue;
        fmt::print("  {}:", test.name);
        for (const auto& [name, value] : test.scalars) fmt::print(" {} = {:g}", name, value);
        fmt::print("\n");
        for (const auto& [name, gen] : test.inputs) fmt::print("    {} = {}\n", name, format_values(gen.values));
        for (const auto& [name, values] : test.expected) fmt::print("    -> {} = {}\n", name, format_values(values));
    }
}

}  // namespace

command_action define_show(CLI::App& command) {
    auto problem = std::make_shared<std::string>();
    command.add_option("problem", *problem, "Problem slug or folder")->required();
    return [problem](cli_context& context) {
        print_problem(load_named_problem(context, *problem));
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
