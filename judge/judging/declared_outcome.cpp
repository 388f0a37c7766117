#include "judging/declared_outcome.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// The first benchmark the held-back events alone timed (no host clock, no charge for solve's host
// time), or that none was timed at all: what a file declared `timed: unblocked` must never show.
std::optional<std::string> timed_by_held_events(const judgement& result) {
    const bench_entry* timed = submission_entry(result);
    if (!timed || timed->figures.empty()) return std::string("but no benchmark was timed");
    for (const bench_figures& run : timed->figures)
        if (run.blocking && !run.host_clock && run.solve_charge_us <= 0)
            return fmt::format("but '{}' was timed held back, by the events alone ({:.1f} us)", run.test,
                               run.median_us);
    return std::nullopt;
}

}  // namespace

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
    if (solution.timed_unblocked && result.overall == verdict::accepted)
        if (auto held = timed_by_held_events(result)) return fmt::format("declared timed unblocked, {}", *held);
    const auto shown = shown_cause(result);
    if (solution.cause && shown != solution.cause)
        return fmt::format("declared cause {}, shown {}{}", to_string(*solution.cause),
                           shown ? to_string(*shown) : "none", why);
    return std::nullopt;
}

}  // namespace gpujudge
