#pragma once
// `asm`: a submission's device code compiled as the judge compiles it (disasm/listing.hpp reads it), as
// SASS through nvdisasm or as PTX from nvcc.
#include "compile/compiler.hpp"
#include "disasm/listing.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct asm_request {
    bool ptx = false;    // PTX (nvcc -ptx) instead of SASS (nvdisasm on nvcc's cubin)
    std::string kernel;  // only the kernels whose name contains it (select_kernels); all when empty
};

struct asm_result {
    bool ptx = false;
    std::string arch;  // sm_90
    std::string tool;  // what printed the code: "nvdisasm", "nvcc -ptx"
    compile_result compile;
    std::vector<kernel_listing> kernels;  // those selected, in the binary's order; none when it did not compile
};

// nvdisasm on PATH, else in the CUDA Toolkit's bin folder; environment_error (exit 13) when in neither.
std::filesystem::path find_nvdisasm();

// What `asm` needs before it starts: a CUDA source (usage_error for Python), and for SASS nvdisasm,
// whose path it returns (empty for PTX).
std::filesystem::path asm_preflight(const std::filesystem::path& source, const asm_request& request);

// Compiles `source` for `compiler.arch` (device code only, with -lineinfo) and reads its kernels, each
// instruction under its line of `source` (named as given). Throws usage_error for a Python source, and
// for a --kernel that names none of the kernels (listing them); environment_error without nvdisasm (SASS)
// or nvcc, or when nvdisasm fails.
asm_result disassemble(const problem_spec& spec, const std::filesystem::path& source, const asm_request& request,
                       const compiler_settings& compiler);

}  // namespace gpujudge
