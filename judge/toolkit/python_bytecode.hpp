#pragma once
// Python's bytecode for torch and triton, compiled once per installation by the judge itself. The
// H100 machine's virtual environment ships no __pycache__ (and a runner may not write there), so
// every runner compiled torch's modules from source on import: about a second of each Python
// submission's load. The folder is written by a Python process that imports only torch and triton
// (-I: nothing of the learner's on sys.path), never by a runner; runners see it read-only.
#include "toolkit/python_probe.hpp"

#include <filesystem>
#include <optional>

namespace gpujudge {

// `cache_dir`/python-bytecode/<the installation's hash>, made now when it is missing (seconds, once);
// none when it cannot be made (the runner then compiles as before).
std::optional<std::filesystem::path> python_bytecode(const python_install& python,
                                                     const std::filesystem::path& cache_dir);

}  // namespace gpujudge
