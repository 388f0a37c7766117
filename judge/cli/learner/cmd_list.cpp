#include "base/exit_codes.hpp"
#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

namespace gpujudge {

command_action define_list(CLI::App&) {
    return [](cli_context& context) {
        int exit = exit_accepted;
        const auto dirs = list_problems(context.judge.home);  // a wrong --home fails before the header
        fmt::print("{:<28} {:<8} {:<32} {}\n", "slug", "level", "title", "personal best");
        for (const auto& dir : dirs) {
            try {
                const problem_spec spec = load_problem(dir);
                const auto test = headline_test(spec);
                const auto best = test && context.judge.results
                                      ? context.judge.results->best(spec.slug, problem_version(spec), *test)
                                      : std::nullopt;
                fmt::print(
                    "{:<28} {:<8} {:<32} {}\n", spec.slug, spec.difficulty, spec.title,
                    best ? fmt::format("{:.1f} µs at {} ({:.0f} GB/s)", best->median_ms * 1e3, best->test, best->gbps)
                         : "-");
            } catch (const spec_error& error) {
                fmt::print(stderr, "{}\n", error.what());
                exit = exit_invalid_problem;
            }
        }
        return exit;
    };
}

}  // namespace gpujudge
