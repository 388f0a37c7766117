#pragma once
// compute-sanitizer, NVIDIA's checker of CUDA programs: the tools `sanitize` offers and the command
// the runner starts behind in a sanitize run (found as every toolkit program is: toolkit/programs.hpp).
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

// compute-sanitizer's tools, in its own names: memcheck (the default), racecheck, synccheck, initcheck.
const std::vector<std::string>& sanitizer_tools();

// How much longer solve may take under a tool than the problem's time limit: the tools slow
// kernels down 10 to 100 times.
constexpr double kSanitizerSlowdown = 100;

// The command prefix (runner_settings::launcher) that runs the runner under `tool`, its report in
// `log_file` alone: the runner's own output is the submission's too, and proves nothing.
std::vector<std::string> sanitizer_launcher(const std::filesystem::path& executable, const std::string& tool,
                                            const std::filesystem::path& log_file);

}  // namespace gpujudge
