#include "content_hash.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <fstream>
#include <sstream>

namespace gpujudge {

std::string content_hash(const std::vector<std::string>& parts) {
    XXH3_state_t* state = XXH3_createState();
    XXH3_128bits_reset(state);
    for (const auto& part : parts) {
        XXH3_128bits_update(state, part.data(), part.size());
        XXH3_128bits_update(state, "\0", 1);
    }
    const XXH128_hash_t hash = XXH3_128bits_digest(state);
    XXH3_freeState(state);
    return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

std::string file_hash(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return {};
    std::stringstream bytes;
    bytes << file.rdbuf();
    return content_hash({bytes.str()});
}

}  // namespace gpujudge
