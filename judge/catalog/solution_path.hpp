#pragma once
// A problem's path: its correct solutions that declare "// step: N" in their headers, naive (1) to
// fastest, each saying what it teaches ("// Technique: ...").
#include "catalog/catalog.hpp"

#include <string>
#include <vector>

namespace gpujudge {

// The solutions that declare a step, in step order (a step declared twice: both, in file order).
std::vector<solution_file> path_steps(const std::vector<solution_file>& solutions);

// What is wrong with one problem's steps, each "path:line: message": a step declared twice, a step
// whose predecessor no file declares. Errors in a single header are its header_error.
std::vector<std::string> path_errors(const std::vector<solution_file>& solutions);

// The text up to its first sentence's end (". " or a final "."), without the full stop.
std::string first_sentence(const std::string& text);

}  // namespace gpujudge
