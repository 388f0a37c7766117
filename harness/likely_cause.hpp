#pragma once
// Why an output is wrong, guessed from the pattern of its mismatches alone (no inputs, no problem
// knowledge): a problem-independent rule per cause, each tested on the CPU. Nothing is said when no
// rule fits: a wrong guess would mislead more than silence.
#include <cstddef>
#include <optional>
#include <string>

namespace gpujudge {

// What compare_output gathers about the mismatches of one output while it compares.
struct mismatch_pattern {
    std::size_t num_items = 0;
    std::size_t num_mismatches = 0;
    std::size_t num_not_written = 0;  // mismatches that still hold the poison
    std::size_t num_nan_got = 0;      // NaN where the reference is finite (not the poison itself)
    std::size_t num_inf_got = 0;      // infinity where the reference is finite
    std::size_t first_index = 0;      // of the first mismatch
    std::size_t last_index = 0;       // of the last mismatch
};

// "likely cause: ..." or nothing.
std::optional<std::string> likely_cause(const mismatch_pattern& pattern);

}  // namespace gpujudge
