#include "base/exit_codes.hpp"
#include "catalog/problem_view.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

namespace gpujudge {

command_action define_show(CLI::App& command) {
    auto problem = std::make_shared<std::string>();
    command.add_option("problem", *problem, "Problem slug or folder")->required();
    return [problem](cli_context& context) {
        fmt::print("{}", problem_text(load_named_problem(context, *problem)));
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
