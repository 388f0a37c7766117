#include "runner/channel.hpp"

#include "base/hex_text.hpp"
#include "base/json_text.hpp"

#include <fmt/format.h>
#include <sys/random.h>
#include <xxhash.h>

#include <algorithm>
#include <stdexcept>

namespace gpujudge {

namespace {

// XXH3 keyed with a secret the forger never sees. It is no cryptographic MAC, but the forger has
// no sealed line to study either: the channel is write-only from its side.
std::string mac_of(const channel_key& key, std::uint64_t sequence, const std::string& body) {
    const std::string text = fmt::format("{}\n{}", sequence, body);
    const XXH128_hash_t hash =
        XXH3_128bits_withSecret(text.data(), text.size(), key.bytes().data(), key.bytes().size());
    return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

}  // namespace

channel_key channel_key::random() {
    channel_key key;
    std::size_t filled = 0;
    while (filled < kBytes) {
        const ssize_t got = getrandom(key.bytes_.data() + filled, kBytes - filled, 0);
        if (got < 0) throw std::runtime_error("cannot read random bytes for the channel's seal");
        filled += static_cast<std::size_t>(got);
    }
    return key;
}

std::optional<channel_key> channel_key::from_hex(const std::string& text) {
    const auto bytes = bytes_of_hex(text);
    if (!bytes || bytes->size() != kBytes) return std::nullopt;
    channel_key key;
    std::copy(bytes->begin(), bytes->end(), key.bytes_.begin());
    return key;
}

std::string channel_key::hex() const {
    return hex_of(std::string_view(reinterpret_cast<const char*>(bytes_.data()), bytes_.size()));
}

std::string message_sealer::seal(const nlohmann::json& message) {
    const std::string body = json_text(message);
    const std::uint64_t sequence = next_++;
    return fmt::format("{} {} {}\n", sequence, mac_of(key_, sequence, body), body);
}

std::optional<nlohmann::json> message_opener::open(const std::string& line) {
    const std::size_t first = line.find(' ');
    const std::size_t second = first == std::string::npos ? first : line.find(' ', first + 1);
    if (second == std::string::npos) return std::nullopt;
    const std::string body = line.substr(second + 1);
    if (line.compare(0, first, std::to_string(next_)) != 0) return std::nullopt;
    if (line.compare(first + 1, second - first - 1, mac_of(key_, next_, body)) != 0) return std::nullopt;
    nlohmann::json message = parse_outside_json(body);
    if (message.is_discarded() || !message.is_object()) return std::nullopt;
    ++next_;
    return message;
}

}  // namespace gpujudge
