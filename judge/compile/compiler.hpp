#pragma once
// Builds submissions (nvcc) and references (the host compiler) into shared libraries, with the
// expected prototype forced into the translation unit, cached by everything that can change the
// library: the source, every local header it includes, the prototype, the flags and the tools'
// versions; not the source's path. The compiler's warnings are kept beside each library and
// returned on every cache hit.
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// Why the path of `source` cannot be given to the compiler, if it cannot (compile_result::path_refused).
std::optional<std::string> unusable_path(const std::filesystem::path& source);

struct compile_result {
    bool ok = false;
    bool cached = false;
    std::filesystem::path library;
    std::string diagnostics;  // trimmed compiler output, the user's file:line kept; cached ones too
    double seconds = 0;
    bool undefined_function = false;  // it failed to link for want of the expected function
    bool source_refused = false;      // not compiled: unreadable, not text, or a path nvcc cannot take
    bool path_refused = false;  // refused for where the file lies, not for its bytes (a grade lends it to no copy)
    // The path nvcc compiled, named in the library's line info: the source's own, or, from the cache,
    // that of the first compile of the same content (empty for entries cached before it was kept).
    std::filesystem::path compiled_from;
    // The hash (content_hash) of the source's bytes that were compiled, read once: what was judged, where
    // the file may have been rewritten since (empty when it could not be read).
    std::string source_hash;
    // What the judgement depends on of the learner's files as compiled (submission_hash: the source's bytes
    // and its local headers'): a grade compares it with its scan's. Empty unless settings.hash_submission.
    std::string submission_hash;
};

// What one compilation may take: the compiler (nvcc, and each program it starts) runs under these
// rlimits and is killed at the wall limit. A limit exceeded is a compile error that names it.
struct compile_limits {
    unsigned cpu_seconds = 300;  // RLIMIT_CPU, per process: $GPUJUDGE_COMPILE_CPU_LIMIT_S
    // RLIMIT_FSIZE: a huge initialised array makes a huge object: $GPUJUDGE_COMPILE_FILE_LIMIT_MB
    unsigned file_mib = 1024;
    // RLIMIT_AS, per process: $GPUJUDGE_COMPILE_MEMORY_LIMIT_MB. Measured with CUDA 13: the heaviest
    // solution (a CUB baseline) fails at 512 MiB and compiles at 1 GiB (peak RSS 650 MB, in the host
    // compiler); 8 GiB leaves room for heavier templates and other toolkits.
    unsigned memory_mib = 8192;
    unsigned wall_seconds = 300;  // killed after: $GPUJUDGE_COMPILE_WALL_LIMIT_S
    // Diagnostics, killed past: $GPUJUDGE_COMPILE_OUTPUT_LIMIT_MB. A few KB of self-including source
    // printed a GiB of warnings, read into the judge's memory twice over.
    unsigned output_mib = 16;
    // What it builds, refused past: $GPUJUDGE_COMPILE_LIBRARY_LIMIT_MB. Kernels make a few MiB; a
    // static array of 1000 MiB made a 1000 MiB library, kept in the cache for good.
    unsigned library_mib = 64;
};
// The limits above, each replaced by its environment variable where that holds a positive number.
compile_limits default_compile_limits();

// How many compiles may run at once: one per core, but no more than the machine's memory holds at
// each one's memory limit. A line like `#include "/dev/zero"` fills half its limit before it fails, and
// a grade's pool of one compile per core asked more than a 128-core node has.
unsigned compiles_at_once(const compile_limits& limits);

struct compiler_settings {
    std::filesystem::path cache_dir;  // compiled libraries, keyed by content hash
    std::string nvcc = "nvcc";
    std::string host_compiler = "c++";
    std::string arch = "sm_90";  // the GPU's own when there is one
    compile_limits limits = default_compile_limits();
    // The compilers run in the sandbox (runner/sandbox.hpp), as runners do; off with --no-sandbox.
    // They see the system, their installation, the source's folder (read-only, at its own path) and
    // a private work folder; never the cache, the judge's temporary folder, nor the folders in
    // `hidden` (the history's: the caller's to name), wherever a folder they see holds them.
    bool sandbox = true;
    std::vector<std::filesystem::path> hidden;
    // Folders of other people's files (a grade's class folder and run folder): covered as `hidden` are,
    // but the source and its headers are shown where they lie in them.
    std::vector<std::filesystem::path> others;
    // A grade's: each compile hashes what it compiled (compile_result::submission_hash), which reads every
    // file beside a source whose scan is incomplete; others need no such reads.
    bool hash_submission = false;
};

// $GPUJUDGE_CACHE_DIR, else $XDG_CACHE_HOME/gpujudge, else ~/.cache/gpujudge.
std::filesystem::path default_cache_dir();

// The forced header: the prototype, and a use of the function so that a missing definition fails
// to link instead of loading without it.
std::string forced_header(const problem_spec& spec, const std::string& function);

// Compiles a .cu submission with nvcc: -O3 -lineinfo -Xcompiler -fPIC -shared -arch=<arch>.
compile_result compile_solution(const problem_spec& spec, const std::filesystem::path& source,
                                const compiler_settings& settings);

// The device code of a .cu submission, for reading (`asm`): PTX (nvcc -ptx) or a cubin (nvcc -cubin, whose
// SASS nvdisasm prints), built as compile_solution builds its library: -O3 -lineinfo -arch=<arch>, the
// forced header, the sandbox, the limits and the cache. `library` is the .ptx or .cubin file.
enum class device_code { ptx, cubin };

// The real architectures this nvcc compiles for (`nvcc --list-gpu-code`: sm_75, sm_90, ...); empty when
// it cannot say (an nvcc too old for the option), so callers check only what it does list.
std::vector<std::string> supported_archs(const compiler_settings& settings);

compile_result compile_device_code(const problem_spec& spec, const std::filesystem::path& source, device_code kind,
                                   const compiler_settings& settings);

// Compiles C++ with the host compiler into a library defining `function` ("reference", or "solve"
// for the host-built fake solutions of the tests).
compile_result compile_host(const problem_spec& spec, const std::filesystem::path& source, const std::string& function,
                            const compiler_settings& settings);

}  // namespace gpujudge
