#pragma once
// The machine code of a submission's kernels as `asm` shows it: per kernel, runs of instructions
// under the source line that produced them. Read from the text that the toolkit's tools print:
// nvdisasm -gi (SASS, with "//## File" comments) and nvcc -ptx -lineinfo (PTX, with .loc and .file
// directives). Pure functions over text, apart from the tools (disasm/run.hpp).
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// A line of a source file, as the compiler's line info names it.
struct source_place {
    std::string file;
    int line = 0;
    bool operator==(const source_place& other) const { return file == other.file && line == other.line; }
};

struct instruction {
    std::string address;  // SASS: the offset in the function, "0040"; empty for PTX and for labels
    std::string text;     // "LDG.E.128 R4, desc[UR4][R2.64] ;", "ld.global.v4.f32 {...}, [%rd5];", ".L_x_3:"
};

// Consecutive instructions that one source line produced; `at` is empty before any line info.
struct code_block {
    std::optional<source_place> at;
    std::vector<instruction> code;
};

struct kernel_listing {
    std::string symbol;  // as in the binary: _Z20reduce_float4_kernelPK6float4PKfPfi
    std::string name;    // demangled: reduce_float4_kernel(float4 const*, float const*, float*, int)
    bool entry = true;   // a __global__ kernel; false: a device function the compiler kept out of line
    std::vector<code_block> blocks;
};

// The demangled name, or the symbol itself when it is not a mangled C++ name.
std::string demangle(const std::string& symbol);

// nvdisasm -gi's listing of a cubin (cuobjdump -sass's "Function : NAME" sections are read too, without
// line info). Each "//## File" group names the innermost frame first, each "inlined at" its caller; an
// instruction is placed on the innermost frame in `prefer_file` (the submission), else the innermost.
std::vector<kernel_listing> parse_sass(const std::string& text, const std::string& prefer_file);

// nvcc -ptx -lineinfo's output: each .entry (kernel) and .func with a body. An instruction is placed
// on the .loc before it, or on its "inlined_at" where that one is in `prefer_file` and the .loc is not.
std::vector<kernel_listing> parse_ptx(const std::string& text, const std::string& prefer_file);

// The kernels whose demangled name contains `wanted`, or whose symbol is `wanted`; all when it is empty.
std::vector<kernel_listing> select_kernels(const std::vector<kernel_listing>& kernels, const std::string& wanted);

}  // namespace gpujudge
