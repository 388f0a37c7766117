#include "toolkit/python_prepared.hpp"

#include "base/content_hash.hpp"
#include "base/readable_tree.hpp"
#include "process/child_process.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <fstream>

namespace gpujudge {

extern const char* const kPythonPrepare;  // python_prepare.py, compiled in (gpujudge_embed_text)

namespace {

constexpr const char* kComplete = "complete";  // written last: a folder without it is not used

bool prepare_into(const python_install& python, const std::filesystem::path& folder) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    const std::vector<std::string> argv{python.executable,
                                        "-I",
                                        "-X",
                                        "pycache_prefix=" + (folder / "bytecode").string(),
                                        "-c",
                                        kPythonPrepare,
                                        folder.string(),
                                        python.triton.empty() ? "torch" : "triton"};
    try {
        const command_result result = run_command(argv, std::chrono::seconds(300));
        if (result.exit.timed_out || result.exit.signaled || result.exit.code != 0) {
            spdlog::warn("preparing {} failed: {}", python.executable, result.output);
            return false;
        }
        if (!result.output.empty()) spdlog::info("preparing {}: {}", python.executable, result.output);
    } catch (const std::runtime_error& what) {
        spdlog::warn("preparing {} failed: {}", python.executable, what.what());
        return false;
    }
    std::ofstream(folder / kComplete) << python.executable << "\n";
    return true;
}

}  // namespace

std::optional<std::filesystem::path> python_prepared(const python_install& python,
                                                     const std::filesystem::path& cache_dir) {
    // The layout's version first: a judge that prepares more prepares again.
    const std::string key = content_hash({"2", python.executable, python.version, python.torch, python.triton});
    const auto folder = cache_dir / "python-prepared" / key;
    if (std::filesystem::exists(folder / kComplete)) return folder;
    std::error_code error;
    std::filesystem::create_directories(folder.parent_path(), error);
    // Prepared beside it, then renamed into place: another judge preparing at the same time wins or
    // loses whole. Triton's pieces name no path of it, so the rename keeps them valid.
    const auto partial = folder.parent_path() / (key + ".partial-" + std::to_string(getpid()));
    std::filesystem::remove_all(partial, error);
    if (prepare_into(python, partial)) {
        let_others_read(partial);  // a root judge's sandbox user reads it
        std::filesystem::rename(partial, folder, error);
    }
    std::filesystem::remove_all(partial, error);
    if (std::filesystem::exists(folder / kComplete)) return folder;
    return std::nullopt;
}

}  // namespace gpujudge
