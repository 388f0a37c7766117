#pragma once
// The judge's own files that a root judge's sandbox user reads (a staged library, the prepared
// Python, kept Triton kernels): opened to others whatever umask they were written under. Their
// folders above stay the judge's (a 0700 staging folder, the cache): the sandbox sees them through a
// bind, nobody else reaches them.
#include <filesystem>

namespace gpujudge {

// Adds read for others to `path` and, when it is a folder, to everything below it (and search to
// the folders), without following links. Only what needs it is changed; what cannot be changed (a
// file of another user's) is passed over.
void let_others_read(const std::filesystem::path& path);

}  // namespace gpujudge
