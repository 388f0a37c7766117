#include "commands.hpp"

#include "catalog.hpp"
#include "exit_codes.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::optional<problem_spec> load_problem_or_report(const cli_context& context, const std::string& name, int& exit) {
    try {
        return load_problem(resolve_problem(context.judge.home, name));
    } catch (const spec_error& error) {
        fmt::print(stderr, "{}\n", error.what());
        exit = exit_invalid_problem;
    } catch (const std::invalid_argument& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        exit = exit_usage;
    }
    return std::nullopt;
}

}  // namespace gpujudge
