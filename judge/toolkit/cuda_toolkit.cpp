#include "toolkit/cuda_toolkit.hpp"

#include "base/user_errors.hpp"
#include "process/child_process.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace gpujudge {

std::filesystem::path cuda_toolkit_bin() {
    const char* home = std::getenv("CUDA_HOME");
    return home && *home ? std::filesystem::path(home) / "bin" : std::filesystem::path("/usr/local/cuda/bin");
}

std::filesystem::path find_toolkit_program(const std::string& program, const std::string& note) {
    if (auto found = find_program(program, {cuda_toolkit_bin()})) return *found;
    throw environment_error(fmt::format(
        "{} not found on PATH or in {}: it comes with the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads); "
        "add the toolkit's bin folder to PATH, or set CUDA_HOME{}",
        program, cuda_toolkit_bin().string(), note.empty() ? "" : " " + note));
}

}  // namespace gpujudge
