#pragma once
// The local headers a source file includes, found as the compiler finds them, for the compile
// cache's key. Read from the text, not from a preprocessor run: `nvcc -M` costs as much as the
// compilation itself (1.3 s) and `c++ -MM` a process start (0.1 s) per submit, while reading the
// few files involved costs microseconds. The text gives a superset of what the preprocessor
// includes (an #include under #if counts whichever way the condition goes, device-only ones too),
// which can only cost a needless recompile, never a stale library.
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct include_scan {
    // False when an #include names its file through a macro: then the headers cannot be known,
    // and the library must not be reused.
    bool complete = true;
    // Every `#include "name"` found beside its includer, transitively: where the compiler reads it.
    std::vector<std::filesystem::path> headers;
    // Each header's bytes as the scan read them, beside `headers`: what the key holds, and so what the
    // compiler is shown (a file rewritten after the scan does not reach it).
    std::vector<std::string> texts;
    // For the cache key: each quoted include's path relative to the source's folder, and its
    // content or the fact that it is not there (so that creating it changes the key). Free of
    // where the source lies, so that a folder moved or reached by another path keeps its key.
    std::vector<std::string> key_parts;
    // Why the headers cannot be compiled as read, "path: why" (one holds NUL bytes, is larger than
    // kMaxHeaderBytes, or all together exceed kMaxHeadersBytes); empty when they can. A header refused
    // is not read further: a sparse file of a GiB costs nothing on disk and a GiB of memory per read.
    std::string refused;
};

// What one header, and all of a source's headers together, may hold.
constexpr std::uintmax_t kMaxHeaderBytes = std::uintmax_t{4} << 20;
constexpr std::uintmax_t kMaxHeadersBytes = std::uintmax_t{16} << 20;

// Whether `file` lies in `folder` or below it, by their paths (the scan reads, and the compile is
// shown, only what lies in the source's folder).
bool lies_in(const std::filesystem::path& file, const std::filesystem::path& folder);

// `#include <...>` is left out: system and CUDA headers change with the toolchain, whose version
// the key holds.
include_scan scan_includes(const std::filesystem::path& source);
// The same, of the source's bytes as the caller read them.
include_scan scan_includes(const std::filesystem::path& source, const std::string& text);

// What a judgement of `source` depends on of the learner's files, as one hash: its bytes (`text`) and the
// local headers `includes` read, as the compile cache keys them (a handed-out wrapper that includes
// "impl.h" is the same file for every student). Where an #include names its file through a macro, also
// where the file lies and every file beside it: never the same as another student's. Of a source alone,
// the hash of its bytes (content_hash). The grade's scan and the compile both compute it, so that a grade
// can tell that what was compiled is what it hashed.
std::string submission_hash(const std::filesystem::path& source, const std::string& text, const include_scan& includes);

}  // namespace gpujudge
