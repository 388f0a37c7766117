#pragma once
// The runner's messages to the judge, sealed with a per-run secret. The submission runs inside the
// runner and can write into any of its file descriptors, the result channel included; it never
// sees the secret (sent over a pipe the runner reads and closes before it loads any library), so
// a line it writes there fails its seal and cannot pass for a result.
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace gpujudge {

class channel_key {
public:
    static constexpr std::size_t kBytes = 192;  // XXH3's secrets must hold at least 136 bytes
    static channel_key random();                // from the kernel's random source
    static std::optional<channel_key> from_hex(const std::string& text);
    std::string hex() const;
    const std::array<unsigned char, kBytes>& bytes() const { return bytes_; }

private:
    std::array<unsigned char, kBytes> bytes_{};
};

// Writes "<seq> <mac> <json>" lines: the sequence number makes every line's seal unique and
// fixes their order, so a copied or replayed line fails too.
class message_sealer {
public:
    explicit message_sealer(const channel_key& key) : key_(key) {}
    std::string seal(const nlohmann::json& message);

private:
    channel_key key_;
    std::uint64_t next_ = 0;
};

// Reads sealed lines in order; nullopt for a line that the runner did not write.
class message_opener {
public:
    explicit message_opener(const channel_key& key) : key_(key) {}
    std::optional<nlohmann::json> open(const std::string& line);

private:
    channel_key key_;
    std::uint64_t next_ = 0;
};

}  // namespace gpujudge
