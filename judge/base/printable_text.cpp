#include "base/printable_text.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// The length of the UTF-8 sequence of two bytes or more at `i`: its length from the lead byte,
// continuation bytes 10xxxxxx; no overlong form, no surrogate, nothing past U+10FFFF (as Python and
// JSON read UTF-8); 0 where there is none.
std::size_t multibyte_at(const std::string& text, std::size_t i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte >= 0xc2 && byte <= 0xdf   ? 2
                               : byte >= 0xe0 && byte <= 0xef ? 3
                               : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                              : 0;
    if (length == 0 || i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if ((byte == 0xe0 && second < 0xa0) || (byte == 0xed && second >= 0xa0) || (byte == 0xf0 && second < 0x90) ||
        (byte == 0xf4 && second >= 0x90))
        return 0;
    return length;
}

}  // namespace

std::string printable_output(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte < 0x7f)) {
            out += text[i++];
            continue;
        }
        std::size_t length = multibyte_at(text, i);
        // C1 controls (U+0080..U+009F, C2 80..C2 9F) are escaped as bytes.
        if (length == 2 && byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) length = 0;
        if (length == 0) {
            out += fmt::format("\\x{:02x}", byte);
            ++i;
            continue;
        }
        out.append(text, i, length);
        i += length;
    }
    return out;
}

std::optional<std::size_t> first_non_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = multibyte_at(text, i);
        if (length == 0) return i;
        i += length;
    }
    return std::nullopt;
}

}  // namespace gpujudge
