#pragma once
// The verdicts of a test and of a submission, in the order a report lists them.
#include <optional>
#include <string>

namespace gpujudge {

enum class verdict {
    accepted,
    wrong_answer,
    compile_error,
    runtime_error,
    time_limit_exceeded,
    memory_violation,
    no_device,
    impossible_time,  // a time no call can have: below the physical floor, or answers there before the call
    skipped,          // a test not run because an earlier one timed out
};

const char* to_string(verdict v);
std::optional<verdict> verdict_from_string(const std::string& text);
// A verdict's name read back (the protocol, the history, saved figures): an unknown one throws
// std::invalid_argument, never becomes another verdict.
verdict parse_verdict(const std::string& text);

}  // namespace gpujudge
