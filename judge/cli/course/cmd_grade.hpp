#pragma once
// `gpujudge grade`, for main.cpp's table of commands.
#include "cli/commands.hpp"

namespace gpujudge {

command_action define_grade(CLI::App& command);

}  // namespace gpujudge
