#include "serve/api/compile_markers.hpp"

#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

// After the file's name: "(12): error: text" (nvcc) or ":12:5: error: text" (gcc, clang).
const std::regex kLocation(R"(^(?:\((\d+)\)|:(\d+)(?::\d+)?):\s*(?:fatal\s+)?(error|warning)[^:]*:\s*(.*)$)");

}  // namespace

std::vector<compile_marker> compile_markers(const std::string& diagnostics, const std::string& source) {
    std::vector<compile_marker> markers;
    std::istringstream lines(diagnostics);
    std::string line;
    while (std::getline(lines, line)) {
        if (source.empty() || line.rfind(source, 0) != 0) continue;
        std::smatch match;
        const std::string rest = line.substr(source.size());
        if (!std::regex_match(rest, match, kLocation)) continue;
        markers.push_back({std::stoi(match[1].matched ? match[1].str() : match[2].str()), match[3], match[4]});
    }
    return markers;
}

void to_json(nlohmann::json& out, const compile_marker& marker) {
    out = {{"line", marker.line}, {"severity", marker.severity}, {"message", marker.message}};
}

}  // namespace gpujudge
