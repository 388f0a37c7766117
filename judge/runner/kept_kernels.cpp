#include "runner/kept_kernels.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/readable_tree.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace gpujudge {

namespace {

bool is_kept_name(const std::string& part) {
    if (part.empty() || part.size() > 255 || part == "." || part == "..") return false;
    return std::all_of(part.begin(), part.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

bool within_limits(std::size_t entries, std::uintmax_t bytes) {
    return entries <= kKeptKernelsEntries && bytes <= kKeptKernelsBytes;
}

}  // namespace

bool is_kept_kernel_path(const std::string& path) {
    std::size_t parts = 0, start = 0;
    for (;;) {
        const std::size_t slash = path.find('/', start);
        if (!is_kept_name(path.substr(start, slash - start)) || ++parts > 4) return false;
        if (slash == std::string::npos) return true;
        start = slash + 1;
    }
}

std::optional<std::vector<kernel_file>> read_kernel_files(const std::filesystem::path& cache) {
    std::vector<kernel_file> files;
    std::uintmax_t bytes = 0;
    std::error_code error;
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(cache, error))) return files;
    std::filesystem::recursive_directory_iterator walk(cache, error), end;  // does not follow links
    for (; !error && walk != end; walk.increment(error)) {
        const std::filesystem::file_status status = walk->symlink_status(error);
        if (error) return std::nullopt;
        if (std::filesystem::is_directory(status)) continue;
        const std::string path = walk->path().lexically_relative(cache).generic_string();
        if (!std::filesystem::is_regular_file(status) || !is_kept_kernel_path(path)) return std::nullopt;
        // read_file_text opens regular files alone: a file swapped for a FIFO since is not waited on.
        std::optional<std::string> text = read_file_text(walk->path());
        if (!text || text->size() > kKeptKernelFileBytes) return std::nullopt;
        bytes += text->size();
        files.push_back({path, std::move(*text)});
        if (!within_limits(files.size(), bytes)) return std::nullopt;
    }
    if (error) return std::nullopt;
    return files;
}

void received_kernels::add(kernel_file file) {
    bytes_ += file.bytes.size();
    job_.push_back(std::move(file));
    // Only a runner that does not check the limits sends past them: its files are dropped as they come.
    if (!within_limits(job_.size(), bytes_)) {
        over_limits_ = true;
        job_.clear();
    }
}

void received_kernels::end_of_job() {
    if (!job_.empty() && !over_limits_) last_ = std::move(job_);
    job_.clear();
    bytes_ = 0;
    over_limits_ = false;
}

std::filesystem::path kept_kernels_dir(const std::filesystem::path& cache_dir, const std::filesystem::path& source,
                                       const python_install& python) {
    return cache_dir / "triton-kernels" /
           content_hash({file_hash(source), python.executable, python.version, python.torch, python.triton});
}

bool keep_kernels(const std::vector<kernel_file>& files, const std::filesystem::path& kept) {
    std::uintmax_t bytes = 0;
    for (const kernel_file& file : files) {
        if (!is_kept_kernel_path(file.path)) return false;
        bytes += file.bytes.size();
    }
    if (files.empty() || !within_limits(files.size(), bytes)) return false;
    std::error_code error;
    std::filesystem::create_directories(kept.parent_path(), error);
    const auto partial = kept.parent_path() / (kept.filename().string() + ".partial-" + std::to_string(getpid()));
    std::filesystem::remove_all(partial, error);
    try {
        for (const kernel_file& file : files) {
            std::filesystem::create_directories((partial / file.path).parent_path());
            write_file_atomically(partial / file.path, file.bytes);
        }
        let_others_read(partial);  // a root judge's sandbox user reads them
        std::filesystem::remove_all(kept, error);
        std::filesystem::rename(partial, kept, error);
    } catch (const std::exception&) {  // a full disk: nothing is kept
        error = std::make_error_code(std::errc::io_error);
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
