#include "checks/compare.hpp"

#include "checks/poison.hpp"
#include "spec/element_match.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpujudge {

std::vector<long long> coordinates_of(std::size_t index, const std::vector<long long>& extents) {
    std::vector<long long> coords(extents.size());
    for (std::size_t d = extents.size(); d-- > 0;) {
        coords[d] = static_cast<long long>(index % static_cast<std::size_t>(extents[d]));
        index /= static_cast<std::size_t>(extents[d]);
    }
    return coords;
}

std::string format_coordinates(const std::vector<long long>& coordinates) {
    std::string text;
    for (std::size_t d = 0; d < coordinates.size(); ++d) text += fmt::format("{}{}", d ? ", " : "", coordinates[d]);
    return text;
}

namespace {

// `got` is 0 where the reference itself is not finite: only non-finite values against finite ones count.
void note_mismatch(mismatch_pattern& pattern, std::size_t index, bool not_written, double got) {
    if (pattern.num_mismatches++ == 0) pattern.first_index = index;
    pattern.last_index = index;
    pattern.num_not_written += not_written;
    if (not_written) return;  // the NaN poison itself is "never written", not an invalid operation
    pattern.num_nan_got += std::isnan(got);
    pattern.num_inf_got += std::isinf(got);
}

// Keeps the longest run of consecutive right elements; `run_start` begins the one that ends at i.
void note_match(mismatch_pattern& pattern, std::size_t run_start, std::size_t index) {
    if (index + 1 - run_start <= pattern.match_run_length) return;
    pattern.match_run_start = run_start;
    pattern.match_run_length = index + 1 - run_start;
}

std::string format_value(double v) {
    if (std::isnan(v)) return "NaN";
    // Integers (every int32 output) print whole, not in exponent form.
    if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
    return fmt::format("{:.9g}", v);
}

}  // namespace

comparison compare_output(const std::string& name, const host_array& expected, const host_array& got, tolerance tol,
                          const std::vector<long long>& extents, std::size_t max_reported) {
    comparison result;
    result.output = name;
    result.num_items = expected.size();
    result.atol = tol.atol;
    result.rtol = tol.rtol;
    const bool is_float = expected.type() == element_type::f32;
    const std::uint32_t poison = poison_word(expected.type());
    std::size_t run_start = 0;  // of the run of right elements that ends at i
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double ref = expected.value(i);
        const double value = got.value(i);
        const bool ok =
            is_float ? float_matches(ref, value, tol.atol, tol.rtol) : int_matches(expected.bits(i), got.bits(i));
        const bool unwritten = got.bits(i) == poison;  // an int's poison is a number, but no answer's error
        if (!unwritten && std::isfinite(ref) && std::isfinite(value)) {
            const double abs_error = std::fabs(value - ref);
            result.max_abs_error = std::max(result.max_abs_error, abs_error);
            if (ref != 0) result.max_rel_error = std::max(result.max_rel_error, abs_error / std::fabs(ref));
        }
        if (ok) {
            note_match(result.pattern, run_start, i);
            continue;
        }
        run_start = i + 1;
        note_mismatch(result.pattern, i, unwritten, std::isfinite(ref) ? value : 0.0);
        if (result.num_mismatches++ < max_reported)
            result.first_mismatches.push_back({i, coordinates_of(i, extents), ref, value, unwritten});
    }
    result.pattern.num_items = expected.size();
    return result;
}

std::string comparison::describe(solve_language language) const {
    std::string text =
        fmt::format("{} of {} elements of '{}' differ from the reference", num_mismatches, num_items, output);
    if (atol != 0 || rtol != 0) text += fmt::format(" (tolerance: atol {:.3g} + rtol {:.3g} * |expected|)", atol, rtol);
    for (const auto& m : first_mismatches) {
        text += fmt::format("\n  {}[{}]: expected {}, got {}", output, format_coordinates(m.coordinates),
                            format_value(m.expected), m.not_written ? "nothing (never written)" : format_value(m.got));
        if (!m.not_written && std::isfinite(m.got) && std::isfinite(m.expected))
            text += fmt::format(" (abs error {:.3g})", std::fabs(m.got - m.expected));
    }
    if (num_mismatches > first_mismatches.size())
        text += fmt::format("\n  ... and {} more", num_mismatches - first_mismatches.size());
    if (max_abs_error > 0)
        text += fmt::format("\n  max abs error {:.3g}, max rel error {:.3g}", max_abs_error, max_rel_error);
    if (const auto cause = likely_cause(pattern, language)) text += "\n  " + cause->text;
    return text;
}

}  // namespace gpujudge
