#pragma once
// Triton's compiled kernels, kept between submits of the same file. The runner compiles them in its
// own scratch (the sandbox's size-capped /tmp) and, after each job that called solve, sends them to
// the judge file by file on the sealed channel (event::kernel_file); the judge keeps the last job's
// and starts the next runner of the same file from the kept copy (read-only): Triton then finds them
// compiled. The runner gets no writable folder on the judge's disk for them.
//
// Kept per file content (and Python, torch and triton), the content the runner loaded (the judge's
// staged copy, not the learner's file, which may change under the judge): what a submission leaves
// there is only ever loaded by a later run of the very same bytes, which could do the same itself,
// so a planted kernel buys nothing. What the judge takes is bounded and plain: files under names of
// letters, digits, '.', '_' and '-', at most kKeptKernelsBytes in all.
#include "toolkit/python_probe.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

constexpr std::uintmax_t kKeptKernelsBytes = std::uintmax_t{64} << 20;
constexpr std::size_t kKeptKernelsEntries = 4096;
// One file, hex-encoded in one sealed line (the judge reads lines of at most 16 MiB).
constexpr std::uintmax_t kKeptKernelFileBytes = std::uintmax_t{4} << 20;
// All files' kept kernels together: a submission that keeps 64 MiB per edit would otherwise fill the
// disk. The least recently used go first (trim_kept_kernels).
constexpr std::uintmax_t kKeptKernelsTotalBytes = std::uintmax_t{1} << 30;

// One file of Triton's cache, its path relative to the cache.
struct kernel_file {
    std::string path;
    std::string bytes;
};

// Whether `path` may name a kept file: 1 to 4 parts of letters, digits, '.', '_' and '-', none of
// them "." or "..", each at most 255 bytes.
bool is_kept_kernel_path(const std::string& path);

// The runner's side: the regular files of Triton's `cache` folder, or nothing when it holds anything
// else (a link, a FIFO, a name not kept) or more than the limits allow: then nothing is sent.
std::optional<std::vector<kernel_file>> read_kernel_files(const std::filesystem::path& cache);

// The judge's side: the files of each job as they arrive; a job's files, when within the limits,
// replace the last job's (each job sends all the kernels compiled so far).
class received_kernels {
public:
    void add(kernel_file file);
    void end_of_job();
    const std::vector<kernel_file>& last() const { return last_; }

private:
    std::vector<kernel_file> job_, last_;
    std::uintmax_t bytes_ = 0;
    bool over_limits_ = false;
};

// `cache_dir`/triton-kernels/<hash of the source's bytes and the Python installation>.
std::filesystem::path kept_kernels_dir(const std::filesystem::path& cache_dir, const std::filesystem::path& source,
                                       const python_install& python);

// Replaces `kept` with `files`, which must be within the limits with paths is_kept_kernel_path
// takes; true when it did. `kept` is never left half written.
bool keep_kernels(const std::vector<kernel_file>& files, const std::filesystem::path& kept);

// Marks a kept folder as used now (its modification time), so that trimming keeps it longest.
void mark_kernels_used(const std::filesystem::path& kept);

// Removes whole kept folders beside `kept` (in its parent), least recently used first, until they
// all take at most `budget` bytes; `kept` itself stays.
void trim_kept_kernels(const std::filesystem::path& kept, std::uintmax_t budget = kKeptKernelsTotalBytes);

}  // namespace gpujudge
