#pragma once
// Elementwise comparison of an output against the reference: |got - ref| <= atol + rtol * |ref|.
#include "checks/likely_cause.hpp"
#include "spec/evaluated_spec.hpp"
#include "spec/host_array.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gpujudge {

struct mismatch {
    std::size_t index = 0;               // flat
    std::vector<long long> coordinates;  // by the buffer's shape, row-major
    double expected = 0;
    double got = 0;
    bool not_written = false;  // still holds the poison the harness wrote before the call
};

struct comparison {
    std::string output;
    std::size_t num_items = 0;
    std::size_t num_mismatches = 0;
    std::vector<mismatch> first_mismatches;
    double max_abs_error = 0;
    double max_rel_error = 0;
    double atol = 0;
    double rtol = 0;
    mismatch_pattern pattern;  // for a likely cause (likely_cause.hpp)

    bool passed() const { return num_mismatches == 0; }
    // "output[3, 1]: expected 10, got 9.5 (abs error 0.5)"; several lines for several mismatches.
    // The likely cause's advice is for a solve in `language`.
    std::string describe(solve_language language = solve_language::cuda) const;
};

// Flat index -> row-major coordinates of a buffer with these extents, and as text: "3, 1".
std::vector<long long> coordinates_of(std::size_t index, const std::vector<long long>& extents);
std::string format_coordinates(const std::vector<long long>& coordinates);

// Integers compare exactly; floats by the tolerance, NaN only against NaN and infinities only against
// the same infinity. `extents` is the buffer's shape.
comparison compare_output(const std::string& name, const host_array& expected, const host_array& got, tolerance tol,
                          const std::vector<long long>& extents, std::size_t max_reported = 5);

}  // namespace gpujudge
