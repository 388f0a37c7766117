#include "catalog.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"

#include <fmt/format.h>

namespace gpujudge {

command_action define_list(CLI::App&) {
    return [](cli_context& context) {
        int exit = exit_accepted;
        fmt::print("{:<28} {:<8} {}\n", "slug", "level", "title");
        for (const auto& dir : list_problems(context.judge.home)) {
            try {
                const problem_spec spec = load_problem(dir);
                fmt::print("{:<28} {:<8} {}\n", spec.slug, spec.difficulty, spec.title);
            } catch (const spec_error& error) {
                fmt::print(stderr, "{}\n", error.what());
                exit = exit_invalid_problem;
            }
        }
        return exit;
    };
}

}  // namespace gpujudge
