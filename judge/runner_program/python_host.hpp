#pragma once
// The runner's embedded Python, for solutions written in Python: the libpython of the Python the
// judge found, opened with dlopen as a runner for Python starts, so that gpujudge is bound to no
// Python's ABI at build time (the same build judges Debian's 3.11 and a virtual environment's 3.12);
// only functions of CPython's stable ABI are called. The bootstrap (python_bootstrap.py, compiled
// in) does the Python side.
#include "calls/python_function.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gpujudge {

// Which Python, as the judge found it (toolkit/python_probe.hpp), and where its caches go.
struct python_setup {
    std::string library;            // libpython, a full path
    std::string home;               // sys.base_prefix: its standard library
    std::vector<std::string> path;  // sys.path, the virtual environment's site-packages included
    std::string cache_dir;          // Triton's kernels, this source's own (writable)
    std::string prepared;           // toolkit/python_prepared.hpp's folder, read-only; "": none
    std::string kept_kernels;       // Triton's kernels from a run of the same file, read-only; "": none
    bool sends_kernels = false;     // Triton's kernels go to the judge after each job (kept_kernels.hpp)
    std::string shown;              // the learner's path of the file, for messages and tracebacks
    bool imports_triton = false;    // the file names triton
};

class python_host {
public:
    // Opens libpython, starts the interpreter and, on a thread of its own, imports torch (and
    // triton, when the file names it): seconds that then overlap the device's start and the
    // judge's references. Throws when the interpreter cannot start.
    explicit python_host(const python_setup& setup);
    python_host(const python_host&) = delete;
    python_host& operator=(const python_host&) = delete;

    // solve from `file` (the learner's, staged), checked against `spec`'s signature, or why it
    // cannot be called: a syntax error, an import that failed, a wrong signature.
    std::variant<python_entry, std::string> load(const std::string& file, const problem_spec& spec,
                                                 const std::string& backend);

    // Triton's cache folder, when its kernels go to the judge after each job (kept_kernels.hpp).
    const std::optional<std::filesystem::path>& kernels_sent() const { return kernels_sent_; }

private:
    void* library_ = nullptr;
    std::string shown_;
    std::optional<std::filesystem::path> kernels_sent_;
};

}  // namespace gpujudge
