#include "likely_cause.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// The widths a kernel's work is cut into: vector loads and common block sizes.
constexpr std::size_t kWidths[] = {1024, 512, 256, 128, 64, 32, 8, 4};

// Every mismatch lies past the last multiple of a width, and all of that tail is wrong: the
// remainder loop after a vectorised or per-block main loop is missing.
std::optional<std::string> dropped_tail(const mismatch_pattern& p) {
    for (const std::size_t width : kWidths) {
        const std::size_t covered = p.num_items / width * width;
        if (covered == 0 || covered == p.num_items) continue;
        if (p.first_index >= covered && p.num_mismatches == p.num_items - covered)
            return fmt::format(
                "likely cause: only the last {} elements (past {}, the last multiple of {}) are wrong: the "
                "remainder after a loop over groups of {} is not handled",
                p.num_items - covered, covered, width, width);
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> likely_cause(const mismatch_pattern& p) {
    if (p.num_mismatches == 0) return std::nullopt;
    if (p.num_not_written == p.num_mismatches)
        return p.num_mismatches == p.num_items
                   ? std::string(
                         "likely cause: the output was never written (the poison the judge put there is "
                         "intact): check the kernel is launched and writes to this pointer")
                   : fmt::format(
                         "likely cause: {} elements were never written (the judge's poison is intact there): "
                         "the grid or a loop does not cover the whole output",
                         p.num_mismatches);
    if (p.num_inf_got > 0 && p.num_inf_got + p.num_nan_got == p.num_mismatches)
        return std::string(
            "likely cause: infinity where the reference is finite: an overflow (exp of a large value without "
            "subtracting the maximum first), a division by zero or the log of 0");
    if (p.num_nan_got == p.num_mismatches)
        return std::string(
            "likely cause: NaN where the reference is finite: the output was added to before it was written (it "
            "arrives poisoned with NaN: zero it first, e.g. before atomicAdd), or an invalid operation such as "
            "inf/inf (exp of a large value without subtracting the maximum) or 0/0");
    return dropped_tail(p);
}

}  // namespace gpujudge
