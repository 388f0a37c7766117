#include "judging/declared_outcome.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::optional<cause_kind> shown_cause(const judgement& result) {
    const test_report* decider = deciding_test(result.tests);
    return decider ? decider->cause : std::nullopt;
}

std::optional<std::string> declaration_mismatch(const solution_file& solution, const judgement& result) {
    const std::string why = result.reason.empty() ? "" : fmt::format(" ({})", result.reason);
    // Rejected: any verdict the judge reached on a device but accepted. no_device is no judgement.
    if (solution.rejected && (result.overall == verdict::accepted || result.overall == verdict::no_device))
        return fmt::format("declared rejected, judged {}{}", to_string(result.overall), why);
    if (solution.expected && result.overall != *solution.expected)
        return fmt::format("declared {}, judged {}{}", to_string(*solution.expected), to_string(result.overall), why);
    const auto shown = shown_cause(result);
    if (solution.cause && shown != solution.cause)
        return fmt::format("declared cause {}, shown {}{}", to_string(*solution.cause),
                           shown ? to_string(*shown) : "none", why);
    return std::nullopt;
}

}  // namespace gpujudge
