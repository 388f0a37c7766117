#include "toolkit/python_bytecode.hpp"

#include "base/content_hash.hpp"
#include "process/child_process.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <fstream>

namespace gpujudge {

namespace {

constexpr const char* kComplete = "complete";  // written last: a folder without it is not used

bool compile_into(const python_install& python, const std::filesystem::path& folder) {
    const std::string modules = python.triton.empty() ? "import torch" : "import torch, triton, triton.language";
    try {
        const command_result result =
            run_command({python.executable, "-I", "-X", "pycache_prefix=" + folder.string(), "-c", modules},
                        std::chrono::seconds(300));
        if (result.exit.timed_out || result.exit.signaled || result.exit.code != 0) {
            spdlog::warn("compiling torch's bytecode with {} failed: {}", python.executable, result.output);
            return false;
        }
    } catch (const std::runtime_error& error) {
        spdlog::warn("compiling torch's bytecode with {} failed: {}", python.executable, error.what());
        return false;
    }
    std::ofstream(folder / kComplete) << python.executable << "\n";
    return true;
}

}  // namespace

std::optional<std::filesystem::path> python_bytecode(const python_install& python,
                                                     const std::filesystem::path& cache_dir) {
    const std::string key = content_hash({python.executable, python.version, python.torch, python.triton});
    const auto folder = cache_dir / "python-bytecode" / key;
    if (std::filesystem::exists(folder / kComplete)) return folder;
    std::error_code error;
    std::filesystem::create_directories(folder.parent_path(), error);
    // Compiled beside it, then renamed into place: another judge compiling at the same time wins or
    // loses whole.
    const auto partial = folder.parent_path() / (key + ".partial-" + std::to_string(getpid()));
    std::filesystem::remove_all(partial, error);
    if (compile_into(python, partial)) std::filesystem::rename(partial, folder, error);
    std::filesystem::remove_all(partial, error);
    if (std::filesystem::exists(folder / kComplete)) return folder;
    return std::nullopt;
}

}  // namespace gpujudge
