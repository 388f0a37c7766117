#include "cli/commands.hpp"

namespace gpujudge {

command_action define_run(CLI::App& command) {
    auto request = std::make_shared<judge_request>();
    add_judge_arguments(command, *request);
    return [request](cli_context& context) { return judge_and_report(context, *request, run_options); };
}

}  // namespace gpujudge
