#include "checks/likely_cause.hpp"

#include <fmt/format.h>

#include <utility>

namespace gpujudge {

namespace {

constexpr std::pair<cause_kind, const char*> kNames[] = {
    {cause_kind::never_written, "never_written"},
    {cause_kind::infinity, "infinity"},
    {cause_kind::not_a_number, "nan"},
    {cause_kind::dropped_tail, "dropped_tail"},
    {cause_kind::one_block, "one_block"},
    {cause_kind::float32_sum, "float32_sum"},
    {cause_kind::half_precision, "half_precision"},
    {cause_kind::off_by_one, "off_by_one"},
};

// The widths a kernel's work is cut into: vector loads and common block sizes.
constexpr std::size_t kWidths[] = {1024, 512, 256, 128, 64, 32, 8, 4};
// The share of one block: its threads, times a few elements each.
constexpr std::size_t kBlockWidths[] = {4096, 2048, 1024, 512, 256, 128, 64, 32};

// Every mismatch lies past the last multiple of a width, and all of that tail is wrong: the
// remainder loop after a vectorised or per-block main loop is missing.
std::optional<cause> dropped_tail(const mismatch_pattern& p) {
    for (const std::size_t width : kWidths) {
        const std::size_t covered = p.num_items / width * width;
        if (covered == 0 || covered == p.num_items) continue;
        if (p.first_index >= covered && p.num_mismatches == p.num_items - covered)
            return cause{cause_kind::dropped_tail,
                         fmt::format("likely cause: only the last {} elements (past {}, the last multiple of {}) are "
                                     "wrong: the remainder after a loop over groups of {} is not handled",
                                     p.num_items - covered, covered, width, width)};
    }
    return std::nullopt;
}

// The right elements form one run holding one block-aligned block (and less than two), and at
// least three quarters of the others are wrong: one block's work arrived, the others' did not.
// Elements of the rest that agree by chance (a zero where zero is right) may stand between.
std::optional<cause> one_block(const mismatch_pattern& p) {
    const std::size_t start = p.match_run_start, length = p.match_run_length;
    const std::size_t others = p.num_items - length;
    if (length == 0 || others == 0 || 4 * p.num_mismatches < 3 * others) return std::nullopt;
    for (const std::size_t width : kBlockWidths) {
        if (length < width || length >= 2 * width || others < width) continue;
        const std::size_t block = (start + width - 1) / width * width;
        if (block + width > start + length) continue;
        return cause{cause_kind::one_block,
                     fmt::format("likely cause: the right elements are one run, [{}, {}), about one block of {}; {} "
                                 "of the other {} are wrong: the other blocks' work is missing (a grid of one block, "
                                 "a loop that covers only blockDim.x elements, or blocks overwriting each other)",
                                 start, start + length, width, p.num_mismatches, others)};
    }
    return std::nullopt;
}

}  // namespace

const char* to_string(cause_kind kind) {
    for (const auto& [k, name] : kNames)
        if (k == kind) return name;
    return "?";
}

std::optional<cause_kind> cause_kind_from_string(const std::string& text) {
    for (const auto& [kind, name] : kNames)
        if (text == name) return kind;
    return std::nullopt;
}

std::string cause_kind_names() {
    std::string names;
    for (const auto& entry : kNames) names += fmt::format("{}{}", names.empty() ? "" : ", ", entry.second);
    return names;
}

namespace {

// Where a whole output is left unwritten: a kernel never launched, or (in Python) a tensor never
// written in place, the two mistakes of a first PyTorch solve.
std::string never_written_advice(solve_language language) {
    if (language == solve_language::python)
        return "solve must write into the output tensor in place (output.copy_(...), output[:] = ..., or a kernel "
               "launched on it): what solve returns is ignored, and `output = ...` only rebinds the name";
    return "check the kernel is launched and writes to this pointer";
}

}  // namespace

std::optional<cause> likely_cause(const mismatch_pattern& p, solve_language language) {
    if (p.num_mismatches == 0) return std::nullopt;
    if (p.num_not_written == p.num_mismatches)
        return cause{cause_kind::never_written,
                     p.num_mismatches == p.num_items
                         ? "likely cause: the output was never written (the poison the judge put there is intact): " +
                               never_written_advice(language)
                         : fmt::format("likely cause: {} elements were never written (the judge's poison is intact "
                                       "there): the grid or a loop does not cover the whole output",
                                       p.num_mismatches)};
    // Correct arithmetic on finite inputs yields no NaN or infinity: where most wrong elements hold one,
    // they say why (the rest are often what the same overflow left finite, such as x / inf = 0).
    const std::size_t non_finite = p.num_inf_got + p.num_nan_got;
    const std::string share = non_finite == p.num_mismatches
                                  ? ""
                                  : fmt::format(" ({} of the {} wrong elements)", non_finite, p.num_mismatches);
    if (p.num_inf_got > 0 && 2 * non_finite >= p.num_mismatches)
        return cause{cause_kind::infinity,
                     fmt::format("likely cause: infinity where the reference is finite{}: an overflow (exp of a large "
                                 "value without subtracting the maximum first), a division by zero or the log of 0",
                                 share)};
    if (p.num_nan_got > 0 && 2 * non_finite >= p.num_mismatches)
        return cause{cause_kind::not_a_number,
                     fmt::format("likely cause: NaN where the reference is finite{}: the output was added to before it "
                                 "was written (it arrives poisoned with NaN: zero it first, e.g. before atomicAdd), or "
                                 "an invalid operation such as inf/inf (exp of a large value without subtracting the "
                                 "maximum) or 0/0",
                                 share)};
    if (auto tail = dropped_tail(p)) return tail;
    return one_block(p);
}

}  // namespace gpujudge
