#pragma once
// One hash for every cache key and every "same bytes" decision of the judge: SHA-256 of the parts,
// each ended by a NUL, in hex. Cryptographic, because a learner writes the bytes: XXH3's collisions
// can be built without a search (two files differing in 8 bytes), and a wrong file then ran its
// correct twin's cached code, or took its verdict in grade without being judged.
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

std::string content_hash(const std::vector<std::string>& parts);

// The hash of a file's bytes; empty when it cannot be read.
std::string file_hash(const std::filesystem::path& path);

}  // namespace gpujudge
