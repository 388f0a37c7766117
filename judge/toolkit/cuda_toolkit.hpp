#pragma once
// Where the judge looks for the CUDA Toolkit's programs that it drives besides nvcc (compute-sanitizer,
// nvdisasm): PATH, then the toolkit's bin folder.
#include <filesystem>
#include <string>

namespace gpujudge {

// $CUDA_HOME/bin, or /usr/local/cuda/bin when CUDA_HOME is unset or empty.
std::filesystem::path cuda_toolkit_bin();

// `program` on PATH, else in cuda_toolkit_bin(). Throws environment_error (exit 13) saying where it
// looked and how to get it, with `note` after it when one is given.
std::filesystem::path find_toolkit_program(const std::string& program, const std::string& note = "");

}  // namespace gpujudge
