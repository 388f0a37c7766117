#include "toolkit/programs.hpp"

#include "base/user_errors.hpp"
#include "process/child_process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace gpujudge {

namespace {

// The one table: what the judge runs each program for, and what to install to have it.
struct toolkit_program {
    const char* name;
    const char* purpose;
    const char* install;
};

constexpr const char* kToolkit = "the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads)";

const toolkit_program kPrograms[] = {
    {"nvcc", "gpujudge compiles CUDA submissions with it", kToolkit},
    {"ncu", "`profile` runs the submission under it",
     "Nsight Compute, which comes with the CUDA Toolkit (https://developer.nvidia.com/nsight-compute)"},
    {"compute-sanitizer", "`sanitize` runs the submission under it", kToolkit},
    {"cuobjdump", "gpujudge reads a compiled submission's machine code (SASS) with it", kToolkit},
    {"nvdisasm", "gpujudge disassembles a compiled submission's machine code with it", kToolkit},
};

const toolkit_program& program_named(const std::string& name) {
    for (const auto& program : kPrograms)
        if (name == program.name) return program;
    throw std::invalid_argument(fmt::format("'{}' is not a CUDA Toolkit program gpujudge knows", name));
}

// "on PATH or in A", "on PATH, in A or in B".
std::string places(const std::vector<std::filesystem::path>& folders) {
    std::string text = "on PATH";
    for (std::size_t i = 0; i < folders.size(); ++i)
        text += fmt::format("{} in {}", i + 1 == folders.size() ? " or" : ",", folders[i].string());
    return text;
}

}  // namespace

toolkit_search toolkit_search::from_environment() {
    toolkit_search where;
    if (const char* path = std::getenv("PATH")) where.path = path;
    if (const char* home = std::getenv("CUDA_HOME")) where.cuda_home = home;
    return where;
}

std::vector<std::filesystem::path> toolkit_search::toolkit_folders() const {
    std::vector<std::filesystem::path> folders;
    for (const auto& home : {std::filesystem::path(cuda_home), default_home}) {
        if (home.empty()) continue;
        const auto bin = (home / "bin").lexically_normal();
        if (std::find(folders.begin(), folders.end(), bin) == folders.end()) folders.push_back(bin);
    }
    return folders;
}

std::vector<std::string> toolkit_program_names() {
    std::vector<std::string> names;
    for (const auto& program : kPrograms) names.emplace_back(program.name);
    return names;
}

std::optional<std::filesystem::path> locate_toolkit_program(const std::string& name, const toolkit_search& where) {
    program_named(name);
    std::vector<std::filesystem::path> folders = path_folders(where.path);
    for (const auto& folder : where.toolkit_folders()) folders.push_back(folder);
    return find_in_folders(name, folders);
}

std::filesystem::path find_toolkit_program(const std::string& name, const toolkit_search& where) {
    if (auto found = locate_toolkit_program(name, where)) return *found;
    throw environment_error(missing_toolkit_program_message(name, where));
}

std::string missing_toolkit_program_message(const std::string& name, const toolkit_search& where) {
    const toolkit_program& program = program_named(name);
    return fmt::format(
        "{} not found {}: {}; install {}, then add its bin folder to PATH or set CUDA_HOME to the folder it is "
        "installed in",
        program.name, places(where.toolkit_folders()), program.purpose, program.install);
}

}  // namespace gpujudge
