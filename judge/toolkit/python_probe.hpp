#pragma once
// The Python that judges .py solutions: $GPUJUDGE_PYTHON, else the first of `python3` on PATH and
// /usr/bin/python3 that has torch. Probed once per process (kept in the judge's cache between processes), without
// importing torch (that alone takes a second or two); what the runner needs to embed it
// (runner_program/python_host.hpp).
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct python_install {
    std::string executable, version;
    std::string library;            // libpython, a full path
    std::string home;               // sys.base_prefix
    std::vector<std::string> path;  // sys.path, without the current folder
    std::string torch, triton;      // versions; empty when not installed
};

// Throws environment_error (exit 13) naming what to install when no Python has torch, or the one
// found has no shared libpython. With a cache folder (the judge's own), the choice is kept there
// and used again while the interpreters and their packages' folders are unchanged.
const python_install& find_python(const std::filesystem::path& cache_dir = {});

// Whether `source` is a Python solution (.py).
bool is_python_source(const std::filesystem::path& source);

// Whether a Python source imports triton (a line `import triton...` or `from triton...`).
bool imports_triton(const std::filesystem::path& source);

// Whether a Python source may compile kernels in its first call: it imports triton, or names torch.compile,
// dynamo, inductor, torch.jit or a C++/CUDA extension built at run time (load_inline, cpp_extension).
// Such a first call is given the compile's 30 s; any other, the time limit and a margin.
bool compiles_on_first_call(const std::filesystem::path& source);

// Throws environment_error when `source` needs what `python` lacks (triton).
void require_python_for(const std::filesystem::path& source, const python_install& python);

}  // namespace gpujudge
