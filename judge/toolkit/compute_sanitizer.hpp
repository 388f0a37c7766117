#pragma once
// compute-sanitizer, NVIDIA's checker of CUDA programs: the tools `sanitize` offers, where the
// program is installed, and the command the runner starts behind in a sanitize run.
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

// compute-sanitizer's tools, in its own names: memcheck (the default), racecheck, synccheck, initcheck.
const std::vector<std::string>& sanitizer_tools();

// How much longer solve may take under a tool than the problem's time limit: the tools slow
// kernels down 10 to 100 times.
constexpr double kSanitizerSlowdown = 100;

// compute-sanitizer on PATH, else in $CUDA_HOME/bin (/usr/local/cuda/bin when CUDA_HOME is unset);
// throws environment_error saying where it looked when it is in neither.
std::filesystem::path find_compute_sanitizer();

// The command prefix (runner_settings::launcher) that runs the runner under `tool`, its report in
// `log_file` alone: the runner's own output is the submission's too, and proves nothing.
std::vector<std::string> sanitizer_launcher(const std::filesystem::path& executable, const std::string& tool,
                                            const std::filesystem::path& log_file);

}  // namespace gpujudge
