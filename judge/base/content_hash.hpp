#pragma once
// One hash for every cache key of the judge: 128-bit XXH3 of the parts, each ended by a NUL.
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

std::string content_hash(const std::vector<std::string>& parts);

// The hash of a file's bytes; empty when it cannot be read.
std::string file_hash(const std::filesystem::path& path);

}  // namespace gpujudge
