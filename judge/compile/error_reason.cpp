#include "compile/error_reason.hpp"

#include "base/printable_text.hpp"
#include "base/regex_line.hpp"

#include <regex>
#include <sstream>

namespace gpujudge {

// Escaped (printable_output): the compiler quotes the source, and bench and validate print the line
// as it is (a #error holding ESC drew on the terminal).
std::string compile_error_reason(const std::string& diagnostics) {
    // "error:" as a diagnostic's kind: after the location's ':' or ')', or opening the line, maybe
    // "fatal" or "catastrophic", maybe numbered ("error #20-D:"); nvcc's own "nvcc fatal   :". A path
    // that holds the word (a student folder named "error") is not one.
    static const std::regex error_line(R"((^|[:)])\s*((fatal|catastrophic) )?error( #[0-9]+(-D)?)?:|^nvcc fatal\b)");
    std::istringstream lines(diagnostics);
    std::string first;
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (std::regex_search(regex_line(line), error_line)) return printable_output(line);
        if (first.empty() && line.find_first_not_of(" \t") != std::string::npos) first = line;
    }
    return printable_output(first);
}

}  // namespace gpujudge
