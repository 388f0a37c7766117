#pragma once
// JSON as text, for the terminal, files and the runner's pipes: invalid UTF-8 is replaced (U+FFFD),
// never thrown on. Names and messages come from file systems and submissions, which hold any bytes
// (a student's folder named with 0xff stopped a class's reports with exit 12).
#include <nlohmann/json.hpp>

#include <string>

namespace gpujudge {

// `indent` as nlohmann::json::dump's: -1 for one line.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace gpujudge
