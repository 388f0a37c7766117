#pragma once
// Text from outside the judge (what a program printed, what its runner says, a compiler's words),
// safe to show on a terminal and in JSON.
#include <cstddef>
#include <optional>
#include <string>

namespace gpujudge {

// Control characters (all but newline and tab; ESC, carriage return, C1 controls such as CSI) and
// bytes that are not UTF-8 become \xNN, so that a submission's output cannot move the cursor,
// recolour or retitle the terminal, or hide the verdict. Escaping twice changes nothing.
std::string printable_output(const std::string& text);

// Where the first byte that is not part of UTF-8 lies, if one does.
std::optional<std::size_t> first_non_utf8(const std::string& text);

}  // namespace gpujudge
