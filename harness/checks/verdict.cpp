#include "checks/verdict.hpp"

#include <stdexcept>

namespace gpujudge {

const char* to_string(verdict v) {
    switch (v) {
        case verdict::accepted:
            return "accepted";
        case verdict::wrong_answer:
            return "wrong_answer";
        case verdict::compile_error:
            return "compile_error";
        case verdict::runtime_error:
            return "runtime_error";
        case verdict::time_limit_exceeded:
            return "time_limit_exceeded";
        case verdict::memory_violation:
            return "memory_violation";
        case verdict::no_device:
            return "no_device";
        case verdict::impossible_time:
            return "impossible_time";
        case verdict::skipped:
            return "skipped";
    }
    return "?";
}

std::optional<verdict> verdict_from_string(const std::string& text) {
    for (int i = 0; i <= static_cast<int>(verdict::skipped); ++i)
        if (text == to_string(static_cast<verdict>(i))) return static_cast<verdict>(i);
    return std::nullopt;
}

verdict parse_verdict(const std::string& text) {
    if (const auto parsed = verdict_from_string(text)) return *parsed;
    throw std::invalid_argument("unknown verdict '" + text + "'");
}

}  // namespace gpujudge
