#pragma once
// Builds submissions (nvcc) and references (the host compiler) into shared libraries, with the
// expected prototype forced into the translation unit, cached by everything that can change the
// library: the source, every local header it includes, the prototype, the flags and the tools'
// versions; not the source's path. The compiler's warnings are kept beside each library and
// returned on every cache hit.
#include "problem_spec.hpp"

#include <filesystem>
#include <string>

namespace gpujudge {

struct compile_result {
    bool ok = false;
    bool cached = false;
    std::filesystem::path library;
    std::string diagnostics;  // trimmed compiler output, the user's file:line kept; cached ones too
    double seconds = 0;
    bool undefined_function = false;  // it failed to link for want of the expected function
    // The path nvcc compiled, named in the library's line info: the source's own, or, from the cache,
    // that of the first compile of the same content (empty for entries cached before it was kept).
    std::filesystem::path compiled_from;
};

struct compiler_settings {
    std::filesystem::path cache_dir;  // compiled libraries, keyed by content hash
    std::string nvcc = "nvcc";
    std::string host_compiler = "c++";
    std::string arch = "sm_90";  // the GPU's own when there is one
};

// $GPUJUDGE_CACHE_DIR, else $XDG_CACHE_HOME/gpujudge, else ~/.cache/gpujudge.
std::filesystem::path default_cache_dir();

// The forced header: the prototype, and a use of the function so that a missing definition fails
// to link instead of loading without it.
std::string forced_header(const problem_spec& spec, const std::string& function);

// Compiles a .cu submission with nvcc: -O3 -lineinfo -Xcompiler -fPIC -shared -arch=<arch>.
compile_result compile_solution(const problem_spec& spec, const std::filesystem::path& source,
                                const compiler_settings& settings);

// Compiles C++ with the host compiler into a library defining `function` ("reference", or "solve"
// for the host-built fake solutions of the tests).
compile_result compile_host(const problem_spec& spec, const std::filesystem::path& source, const std::string& function,
                            const compiler_settings& settings);

}  // namespace gpujudge
