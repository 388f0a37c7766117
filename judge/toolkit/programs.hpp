#pragma once
// The CUDA Toolkit's programs that the judge runs (nvcc, ncu, compute-sanitizer, cuobjdump,
// nvdisasm): all found one way, each with one message for when it is missing, which says what the
// judge runs it for and what to install (exit 13, environment_error).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// Where a toolkit program is looked for, in order: each folder of PATH, then $CUDA_HOME/bin when
// CUDA_HOME is set, then the toolkit's default installation's bin (/usr/local/cuda/bin).
struct toolkit_search {
    std::string path;       // PATH's value
    std::string cuda_home;  // CUDA_HOME's value; empty: unset
    std::filesystem::path default_home = "/usr/local/cuda";
    // PATH and CUDA_HOME as this process has them.
    static toolkit_search from_environment();
    // The folders after PATH's, without repeats.
    std::vector<std::filesystem::path> toolkit_folders() const;
};

// The toolkit programs the judge knows (the table's names, in its order).
std::vector<std::string> toolkit_program_names();

// The program's file, searched as toolkit_search says. Throws environment_error with
// missing_toolkit_program_message when it is in none of the folders; std::invalid_argument for a
// name not in the table (a bug).
std::filesystem::path find_toolkit_program(const std::string& name,
                                           const toolkit_search& where = toolkit_search::from_environment());
// The same, without throwing for a missing program.
std::optional<std::filesystem::path> locate_toolkit_program(
    const std::string& name, const toolkit_search& where = toolkit_search::from_environment());

// "nvcc not found on PATH or in /usr/local/cuda/bin: gpujudge compiles CUDA submissions with it;
// install ...": where it looked, what it is for, what to install.
std::string missing_toolkit_program_message(const std::string& name, const toolkit_search& where);

}  // namespace gpujudge
