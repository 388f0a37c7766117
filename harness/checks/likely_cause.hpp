#pragma once
// Why an output is wrong, guessed from the pattern of its mismatches alone (no inputs, no problem
// knowledge): a problem-independent rule per cause, each tested on the CPU. Nothing is said when no
// rule fits: a wrong guess would mislead more than silence. Causes that need the test's inputs or
// the reference (sum_evidence.hpp, the judge's wrong_answer_causes) share these kinds.
#include <cstddef>
#include <optional>
#include <string>

namespace gpujudge {

// What a cause is called in `// cause:` headers and in the JSON report.
enum class cause_kind {
    never_written,   // the poison is intact
    infinity,        // infinity where the reference is finite
    not_a_number,    // NaN alone where the reference is finite
    dropped_tail,    // only the remainder past the last multiple of a loop width is wrong or missing
    one_block,       // only one block's share is there
    float32_sum,     // the error of summing in float32 one element at a time
    half_precision,  // the error of accumulating in half precision
    off_by_one,      // the reference over a bound shifted by one
};

const char* to_string(cause_kind kind);
std::optional<cause_kind> cause_kind_from_string(const std::string& text);
std::string cause_kind_names();  // "never_written, infinity, ...", for messages

struct cause {
    cause_kind kind;
    std::string text;  // "likely cause: ..."
};

// What compare_output gathers about the mismatches of one output while it compares.
struct mismatch_pattern {
    std::size_t num_items = 0;
    std::size_t num_mismatches = 0;
    std::size_t num_not_written = 0;  // mismatches that still hold the poison
    std::size_t num_nan_got = 0;      // NaN where the reference is finite (not the poison itself)
    std::size_t num_inf_got = 0;      // infinity where the reference is finite
    std::size_t first_index = 0;      // of the first mismatch
    std::size_t last_index = 0;       // of the last mismatch
    std::size_t match_run_start = 0;  // the longest run of consecutive right elements
    std::size_t match_run_length = 0;
};

// What solve was written in: a Python solve writes its outputs otherwise than a kernel does.
enum class solve_language { cuda, python };

std::optional<cause> likely_cause(const mismatch_pattern& pattern, solve_language language = solve_language::cuda);

}  // namespace gpujudge
