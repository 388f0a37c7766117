#include "base/content_hash.hpp"

#include "base/file_text.hpp"

#include <fmt/format.h>
#include <xxhash.h>

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
    const auto bytes = read_file_text(path);
    return bytes ? content_hash({*bytes}) : std::string{};
}

}  // namespace gpujudge
