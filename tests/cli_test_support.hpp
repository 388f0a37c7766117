#pragma once
// What the CLI tests share: the gpujudge binary run as a user runs it.
#include "base/file_text.hpp"
#include "process/child_process.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>

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

// The processes whose command line holds `marker`, read from /proc.
inline std::vector<int> processes_with(const std::string& marker) {
    std::vector<int> found;
    DIR* proc = opendir("/proc");
    while (dirent* entry = proc ? readdir(proc) : nullptr) {
        const int pid = std::atoi(entry->d_name);
        if (pid <= 0 || pid == getpid()) continue;
        const auto cmdline = read_file_text("/proc/" + std::to_string(pid) + "/cmdline");
        if (cmdline && cmdline->find(marker) != std::string::npos) found.push_back(pid);
    }
    if (proc) closedir(proc);
    return found;
}

}  // namespace gpujudge
