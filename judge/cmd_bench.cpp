#include "commands.hpp"
#include "exit_codes.hpp"

namespace gpujudge {

command_action define_bench(CLI::App& command) {
    return [](cli_context&) { return static_cast<int>(exit_usage); };
}

}  // namespace gpujudge
