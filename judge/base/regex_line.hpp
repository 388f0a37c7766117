#pragma once
// libstdc++'s std::regex matches by recursion, a stack frame or more for each character a repetition
// takes: nvcc's echo of a 50 000-character #error line overflowed the judge's stack in a regex (a red
// team's source: exit 139, and a grade or the page's server died with it). A line of text from outside
// the judge (a compiler's, a tool's, a submission's) reaches a regex only through regex_line. What is
// parsed from it is cut too: a kernel's name past 4096 characters (templates can make one) is shown cut.
#include <cstddef>
#include <string>

namespace gpujudge {

inline constexpr std::size_t kRegexLineLimit = 4096;

// `line`'s first kRegexLineLimit characters.
std::string regex_line(const std::string& line);

}  // namespace gpujudge
