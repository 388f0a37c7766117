#include "serve/api/compile_markers.hpp"

#include "base/regex_line.hpp"
#include "toolkit/python_probe.hpp"

#include <optional>
#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

// After the file's name: "(12): error: text" (nvcc) or ":12:5: error: text" (gcc, clang).
const std::regex kLocation(R"(^(?:\((\d+)\)|:(\d+)(?::\d+)?):\s*(?:fatal\s+)?(error|warning)[^:]*:\s*(.*)$)");
// After a Python file's name: ":6: SyntaxError: text" (the runner's compile error,
// judge/runner_program/python_bootstrap.py).
const std::regex kPythonLocation(R"(^:(\d+):\s*([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit)):?\s*(.*)$)");
// A traceback's frame: '  File "<path>", line 3, in <module>'; the path is compared apart.
const std::regex kFrame(R"re(^\s+File "(.*)", line (\d+)(?:, in .*)?$)re");

std::string severity_of(const std::string& kind) {
    return kind.size() >= 7 && kind.compare(kind.size() - 7, 7, "Warning") == 0 ? "warning" : "error";
}

// A line that names the file at its start, as a compiler writes it.
std::optional<compile_marker> located(const std::string& line, const std::string& source, bool python) {
    if (line.rfind(source, 0) != 0) return std::nullopt;
    const std::string rest = line.substr(source.size());
    std::smatch match;
    if (std::regex_match(rest, match, kLocation))
        return compile_marker{std::stoi(match[1].matched ? match[1].str() : match[2].str()), match[3], match[4]};
    if (python && std::regex_match(rest, match, kPythonLocation))
        return compile_marker{std::stoi(match[1]), severity_of(match[2]),
                              match[3].length() ? match[2].str() + ": " + match[3].str() : match[2].str()};
    return std::nullopt;
}

}  // namespace

std::vector<compile_marker> compile_markers(const std::string& diagnostics, const std::string& source) {
    std::vector<compile_marker> markers;
    if (source.empty()) return markers;
    const bool python = is_python_source(source);
    std::size_t frames = 0;  // the traceback's frames in the file, waiting for its exception's line
    std::istringstream lines(diagnostics);
    for (std::string whole; std::getline(lines, whole);) {
        const std::string line = regex_line(whole);
        std::smatch frame;
        if (python && std::regex_match(line, frame, kFrame)) {
            if (frame[1] == source) {
                markers.push_back({std::stoi(frame[2]), "error", ""});
                ++frames;
            }
            continue;
        }
        if (frames > 0 && !line.empty() && line.front() != ' ' && line.rfind("Traceback ", 0) != 0) {
            for (std::size_t i = markers.size() - frames; i < markers.size(); ++i) markers[i].message = line;
            frames = 0;
        }
        if (auto marker = located(line, source, python)) markers.push_back(*marker);
    }
    return markers;
}

void to_json(nlohmann::json& out, const compile_marker& marker) {
    out = {{"line", marker.line}, {"severity", marker.severity}, {"message", marker.message}};
}

}  // namespace gpujudge
