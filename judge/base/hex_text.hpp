#pragma once
// Bytes as lowercase hex, and back: for bytes a JSON text cannot carry (it is UTF-8), such as a kept
// kernel file's or a student folder's name that is not UTF-8, and the channel's key.
#include <optional>
#include <string>
#include <string_view>

namespace gpujudge {

std::string hex_of(std::string_view bytes);
// The bytes `text` spells (either case), or nothing when it is not hex of whole bytes.
std::optional<std::string> bytes_of_hex(std::string_view text);

}  // namespace gpujudge
