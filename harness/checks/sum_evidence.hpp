#pragma once
// Likely causes of a wrong sum that only its inputs show. The terms of a declared sum (problem.yaml
// `diagnosis: sums:`) are summed again on the CPU: in double, in float32 one at a time, in half
// precision, and by aligned chunks; the wrong value is held against each. Every rule is
// problem-independent and stays silent unless its evidence is clear: a match that chance would
// explain as well, or an error that one term or a simple factor explains, says nothing.
#include "checks/likely_cause.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace gpujudge {

// The half-precision value nearest x (to nearest, ties to even; past 65504 an infinity): how the
// GPU's __float2half and every __half operation round.
double round_to_half(double x);

struct wrong_sum {
    double got = 0;
    double expected = 0;   // the reference's value
    double tolerance = 0;  // atol + rtol * |expected|
    double scale = 1;      // the value is scale * the sum of the terms
    bool integer = false;  // an int output, compared exactly
};

class sum_evidence {
public:
    explicit sum_evidence(const wrong_sum& sum) : sum_(sum) {}
    // Every term, in index order, a block at a time.
    void add(const double* terms, std::size_t count);
    std::optional<cause> likely_cause() const;

private:
    struct candidate {
        double value;
        std::size_t begin, end, width;
        bool tail;  // the terms before the last multiple of `width`
    };
    using candidate_visitor = std::function<void(const candidate&)>;
    double prefix(std::size_t end) const;  // the sum of terms [0, end)
    void prefixes(const candidate_visitor& visit) const;
    void chunks(const candidate_visitor& visit) const;
    std::optional<cause> missing_share(void (sum_evidence::*family)(const candidate_visitor&) const) const;
    std::optional<cause> precision() const;
    bool simple_factor() const;
    // How near a logic error's value must be: a quarter of the tolerance, which any float32 order of
    // the same logic keeps to by far (the tolerance bounds every order at the largest size).
    double allowed() const { return sum_.integer ? 0.5 : sum_.tolerance / 4; }

    wrong_sum sum_;
    std::size_t count_ = 0;
    float float32_ = 0;      // one at a time in float32
    double half_ = 0;        // one at a time in half precision
    double half_terms_ = 0;  // the terms rounded to half, summed exactly
    // Half running sums over chunks of 32 and of 1024 terms, the chunks added exactly: the orders of
    // short per-thread or per-warp half sums, which a long running sum's overflow says nothing of.
    struct half_chunks {
        std::size_t width;
        double running = 0, total = 0;
    };
    half_chunks half_chunks_[2] = {{32}, {1024}};
    std::vector<double> prefix32_{0.0};  // the sum of terms [0, 32 j)
    std::vector<double> open_chunk_;     // the terms past the last multiple of 32
    bool one_term_off_ = false;          // the error is one term, left out or added twice
};

}  // namespace gpujudge
