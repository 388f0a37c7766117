#include "base/printable_text.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::string printable_output(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    const auto escape = [&](unsigned char byte) { out += fmt::format("\\x{:02x}", byte); };
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte < 0x7f)) {
            out += text[i++];
            continue;
        }
        // A UTF-8 sequence: its length from the lead byte, continuation bytes 10xxxxxx, no overlong
        // two-byte forms; C1 controls (U+0080..U+009F, C2 80..C2 9F) are escaped as bytes.
        const std::size_t length = byte >= 0xc2 && byte <= 0xdf   ? 2
                                   : byte >= 0xe0 && byte <= 0xef ? 3
                                   : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                                  : 0;
        bool valid = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k)
            valid = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
        if (valid && byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) valid = false;
        if (!valid) {
            escape(byte);
            ++i;
            continue;
        }
        out.append(text, i, length);
        i += length;
    }
    return out;
}

}  // namespace gpujudge
