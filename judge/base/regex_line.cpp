#include "base/regex_line.hpp"

namespace gpujudge {

std::string regex_line(const std::string& line) {
    return line.size() <= kRegexLineLimit ? line : line.substr(0, kRegexLineLimit);
}

}  // namespace gpujudge
