#pragma once
// The lines of the learner's file that the compiler's diagnostics point at, for the page to mark
// in the editor: nvcc's "file.cu(12): error: ...", the host compiler's "file.cu:12:5: error: ...",
// and for a Python file the runner's "file.py:6: SyntaxError: ..." and the frames in the file of a
// traceback from importing it ('  File "file.py", line 3, in <module>').
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpujudge {

struct compile_marker {
    int line = 0;          // from 1
    std::string severity;  // "error" or "warning"
    std::string message;   // the rest of the diagnostic's first line; for a traceback, its exception's line
};

// The markers of diagnostics about `source` (as the compiler named it), in order; diagnostics about other files
// (headers, the forced prototype, Python's own modules) are left out.
std::vector<compile_marker> compile_markers(const std::string& diagnostics, const std::string& source);

void to_json(nlohmann::json& out, const compile_marker& marker);

}  // namespace gpujudge
