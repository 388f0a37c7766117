#include "runner/kept_kernels.hpp"

#include "base/content_hash.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace gpujudge {

namespace {

// Whether `from` is a tree of plain folders and regular files within the limits.
bool plain_and_small(const std::filesystem::path& from) {
    std::error_code error;
    std::uintmax_t bytes = 0;
    std::size_t entries = 0;
    std::filesystem::recursive_directory_iterator walk(from, error), end;  // does not follow links
    for (; !error && walk != end; walk.increment(error)) {
        const std::filesystem::file_status status = walk->symlink_status(error);
        if (error || ++entries > kKeptKernelsEntries) return false;
        if (std::filesystem::is_directory(status)) continue;
        if (!std::filesystem::is_regular_file(status)) return false;
        bytes += walk->file_size(error);
        if (error || bytes > kKeptKernelsBytes) return false;
    }
    return !error;
}

}  // namespace

std::filesystem::path kept_kernels_dir(const std::filesystem::path& cache_dir, const std::filesystem::path& source,
                                       const python_install& python) {
    return cache_dir / "triton-kernels" /
           content_hash({file_hash(source), python.executable, python.version, python.torch, python.triton});
}

bool keep_kernels(const std::filesystem::path& from, const std::filesystem::path& kept) {
    std::error_code error;
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(from, error))) return false;
    if (!plain_and_small(from)) {
        spdlog::warn("Triton's kernels were not kept: the runner left links, other files or more than {} MiB",
                     kKeptKernelsBytes >> 20);
        return false;
    }
    std::filesystem::create_directories(kept.parent_path(), error);
    const auto partial = kept.parent_path() / (kept.filename().string() + ".partial-" + std::to_string(getpid()));
    std::filesystem::remove_all(partial, error);
    std::filesystem::copy(from, partial, std::filesystem::copy_options::recursive, error);
    if (!error) {
        std::filesystem::remove_all(kept, error);
        std::filesystem::rename(partial, kept, error);
    }
    std::error_code ignored;
    std::filesystem::remove_all(partial, ignored);
    return !error;
}

void mark_kernels_used(const std::filesystem::path& kept) {
    std::error_code error;
    std::filesystem::last_write_time(kept, std::filesystem::file_time_type::clock::now(), error);
}

void trim_kept_kernels(const std::filesystem::path& kept, std::uintmax_t budget) {
    struct folder {
        std::filesystem::file_time_type used;
        std::uintmax_t bytes = 0;
        std::filesystem::path path;
    };
    std::vector<folder> folders;
    std::uintmax_t total = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(kept.parent_path(), error)) {
        folder each{entry.last_write_time(error), 0, entry.path()};
        std::filesystem::recursive_directory_iterator walk(entry.path(), error), end;  // follows no link
        for (; !error && walk != end; walk.increment(error))
            if (walk->is_regular_file(error)) each.bytes += walk->file_size(error);
        error.clear();
        total += each.bytes;
        if (entry.path() != kept) folders.push_back(each);
    }
    std::sort(folders.begin(), folders.end(), [](const folder& a, const folder& b) { return a.used < b.used; });
    for (const folder& oldest : folders) {
        if (total <= budget) break;
        std::filesystem::remove_all(oldest.path, error);
        if (!error) total -= oldest.bytes;
    }
}

}  // namespace gpujudge
