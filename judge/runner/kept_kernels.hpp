#pragma once
// Triton's compiled kernels, kept between submits of the same file. The runner compiles them in its
// own scratch, copies them into its outputs folder after each judge and time job, and starts the
// next runner of the same file from the kept copy (read-only): Triton then finds them compiled.
//
// Kept per file content (and Python, torch and triton), the content the runner loaded (the judge's
// staged copy, not the learner's file, which may change under the judge): what a submission leaves
// there is only ever loaded by a later run of the very same bytes, which could do the same itself,
// so a planted kernel buys nothing. What the judge takes from the runner's folder is bounded and
// plain: regular files and folders only (no links, no devices), at most kKeptKernelsBytes in all.
#include "toolkit/python_probe.hpp"

#include <cstdint>
#include <filesystem>

namespace gpujudge {

constexpr std::uintmax_t kKeptKernelsBytes = std::uintmax_t{64} << 20;
constexpr std::size_t kKeptKernelsEntries = 4096;
// All files' kept kernels together: a submission that keeps 64 MiB per edit would otherwise fill the
// disk. The least recently used go first (trim_kept_kernels).
constexpr std::uintmax_t kKeptKernelsTotalBytes = std::uintmax_t{1} << 30;

// `cache_dir`/triton-kernels/<hash of the source's bytes and the Python installation>.
std::filesystem::path kept_kernels_dir(const std::filesystem::path& cache_dir, const std::filesystem::path& source,
                                       const python_install& python);

// Replaces `kept` with a copy of the runner's `from`, when `from` holds only regular files and
// folders within the limits; true when it did. `kept` is never left half written.
bool keep_kernels(const std::filesystem::path& from, const std::filesystem::path& kept);

// Marks a kept folder as used now (its modification time), so that trimming keeps it longest.
void mark_kernels_used(const std::filesystem::path& kept);

// Removes whole kept folders beside `kept` (in its parent), least recently used first, until they
// all take at most `budget` bytes; `kept` itself stays.
void trim_kept_kernels(const std::filesystem::path& kept, std::uintmax_t budget = kKeptKernelsTotalBytes);

}  // namespace gpujudge
