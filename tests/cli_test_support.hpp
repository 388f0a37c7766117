#pragma once
// What the CLI tests share: the gpujudge binary run as a user runs it.
#include "process/child_process.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace gpujudge {

// The binary with `env` ("NAME=value") set for it alone.
inline command_result gpujudge_env(const std::vector<std::string>& env, const std::vector<std::string>& args) {
    std::vector<std::string> argv{"/usr/bin/env"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.push_back(GPUJUDGE_BIN_DIR "/gpujudge");
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, std::chrono::seconds(300));
}

}  // namespace gpujudge
