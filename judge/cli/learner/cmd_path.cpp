#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "cli/commands.hpp"
#include "path/learning_path.hpp"

#include <fmt/format.h>

namespace gpujudge {

// A problem's solutions as a path, naive to fastest: each step's technique and the figures bench
// measured for it on the H100 (solutions/measured-h100.json).
command_action define_path(CLI::App& command) {
    struct options {
        std::string problem;
        bool json = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_flag("--json", opts->json, "Print one JSON object instead of the table");
    return [opts](cli_context& context) {
        const problem_spec spec = load_named_problem(context, opts->problem);
        const measurements measured = load_measurements(default_measurements_path(context.judge.home));
        const learning_path path = build_path(context.judge.home, spec, measured);
        if (!path.errors.empty()) {
            for (const auto& error : path.errors) fmt::print(stderr, "{}\n", error);
            return static_cast<int>(exit_invalid_problem);
        }
        if (opts->json)
            fmt::print("{}\n", json_text(path_json(path), 2));
        else
            fmt::print("{}", path_text(path));
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
