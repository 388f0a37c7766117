#pragma once
// What the judge prepares once per Python installation, by itself (python_prepare.py): torch's and
// triton's bytecode, Triton's CUDA utilities and its launchers' header, precompiled. The H100
// machine's virtual environment ships no __pycache__ (and a runner may not write there), so every
// runner compiled torch's modules from source on import (about a second), and every Triton run
// built the same utilities (0.4 s) and parsed Python.h and cuda.h for each launcher (0.1 s each).
// The folder is written by a Python process that imports only torch and triton (-I: nothing of the
// learner's on sys.path), never by a runner; runners see it read-only.
#include "toolkit/python_probe.hpp"

#include <filesystem>
#include <optional>

namespace gpujudge {

// `cache_dir`/python-prepared/<the installation's hash>, made now when it is missing (seconds,
// once); none when it cannot be made (the runner then compiles as before).
std::optional<std::filesystem::path> python_prepared(const python_install& python,
                                                     const std::filesystem::path& cache_dir);

}  // namespace gpujudge
