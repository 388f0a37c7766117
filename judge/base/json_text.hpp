#pragma once
// JSON as text, for the terminal, files and the runner's pipes: invalid UTF-8 is replaced (U+FFFD),
// never thrown on. Names and messages come from file systems and submissions, which hold any bytes
// (a student's folder named with 0xff stopped a class's reports with exit 12).
#include <nlohmann/json.hpp>

#include <string>

namespace gpujudge {

// `indent` as nlohmann::json::dump's: -1 for one line.
std::string json_text(const nlohmann::json& value, int indent = -1);

// How deep JSON from outside the judge (a runner's line, a page's request) may nest. nlohmann parses
// iteratively but dumps and compares by recursion, a stack frame per level: a solve's sealed line of
// 2 000 000 levels overflowed the judge's stack when a debug line dumped it.
inline constexpr int kMaxJsonDepth = 32;

// `text` parsed; a discarded value (is_discarded()) where it nests deeper than kMaxJsonDepth, or where it
// is not JSON and `throw_parse_errors` is false (else nlohmann::json::parse_error, saying where).
nlohmann::json parse_outside_json(const std::string& text, bool throw_parse_errors = false);

}  // namespace gpujudge
