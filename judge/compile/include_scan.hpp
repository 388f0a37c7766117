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
};

// `#include <...>` is left out: system and CUDA headers change with the toolchain, whose version
// the key holds.
include_scan scan_includes(const std::filesystem::path& source);
// The same, of the source's bytes as the caller read them.
include_scan scan_includes(const std::filesystem::path& source, const std::string& text);

}  // namespace gpujudge
