#include "checks/sum_evidence.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

namespace gpujudge {

namespace {

constexpr std::size_t kChunk = 32;       // prefix sums are kept at multiples of this
constexpr std::size_t kMaxWidth = 4096;  // a block's share: its threads times a few elements each
constexpr double kChance = 0.01;         // the most that chance may explain a match

}  // namespace

double round_to_half(double x) {
    if (!std::isfinite(x)) return x;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;  // |x| in [2^exponent, 2^(exponent+1))
    // 11 significant bits; below 2^-14 the subnormals' fixed step of 2^-24.
    const int step = std::max(exponent - 10, -24);
    // Adding 1.5 * 2^(step+52) puts x where a double's last bit is worth 2^step: the addition rounds x
    // to a multiple of the step, to nearest, ties to even, as the hardware does (a hundred million
    // terms go through here four times).
    const std::uint64_t magic_bits = (static_cast<std::uint64_t>(step + 52 + 1023) << 52) | (std::uint64_t{1} << 51);
    double magic = 0;
    std::memcpy(&magic, &magic_bits, sizeof magic);
    const double rounded = (x + magic) - magic;
    return std::fabs(rounded) > 65504 ? std::copysign(HUGE_VAL, x) : rounded;
}

void sum_evidence::add(const double* terms, std::size_t count) {
    const double error = sum_.got - sum_.expected;
    for (std::size_t i = 0; i < count; ++i) {
        const double t = terms[i];
        float32_ += static_cast<float>(t);
        const double half_term = round_to_half(t);
        half_ = round_to_half(half_ + half_term);
        half_terms_ += half_term;
        for (auto& chunk : half_chunks_) {
            chunk.running = round_to_half(chunk.running + half_term);
            if ((count_ + i + 1) % chunk.width == 0) {
                chunk.total += chunk.running;
                chunk.running = 0;
            }
        }
        const double scaled = sum_.scale * t;
        if (std::fabs(error - scaled) <= allowed() || std::fabs(error + scaled) <= allowed()) one_term_off_ = true;
        open_chunk_.push_back(t);
        if (open_chunk_.size() == kChunk) {
            prefix32_.push_back(prefix32_.back() + std::accumulate(open_chunk_.begin(), open_chunk_.end(), 0.0));
            open_chunk_.clear();
        }
    }
    count_ += count;
}

double sum_evidence::prefix(std::size_t end) const {
    const std::size_t whole = end / kChunk;
    const std::size_t rest = end - whole * kChunk;  // only ever inside the open chunk
    return prefix32_[whole] + std::accumulate(open_chunk_.begin(), open_chunk_.begin() + rest, 0.0);
}

// The first block's share [0, w), and the terms before the last multiple of a loop width (a
// dropped tail): a few candidates.
void sum_evidence::prefixes(const candidate_visitor& visit) const {
    std::size_t last_covered = 0;
    for (const std::size_t width : {4, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
        const std::size_t covered = count_ / width * width;
        // A vector loop ran at least once, a block loop at least twice (once is one block's share); no
        // narrower width gave the same terms.
        if (covered < (width <= 8 ? width : 2 * width) || covered == count_ || covered == last_covered) continue;
        last_covered = covered;
        visit({sum_.scale * prefix(covered), 0, covered, width, true});
    }
    for (std::size_t width = kChunk; width <= kMaxWidth && width < count_; width *= 2)
        visit({sum_.scale * prefix(width), 0, width, width, false});
}

// Every block-aligned chunk of every block width: one block's share, whichever block. Millions of
// candidates for a large sum, visited, never held.
void sum_evidence::chunks(const candidate_visitor& visit) const {
    for (std::size_t width = kChunk; width <= kMaxWidth && width < count_; width *= 2)
        for (std::size_t begin = 0; begin < count_; begin += width) {
            const std::size_t end = std::min(begin + width, count_);
            visit({sum_.scale * (prefix(end) - prefix(begin)), begin, end, width, false});
        }
}

// A candidate the wrong value equals, unless chance explains it: the candidates lying as near the
// wrong value as the reference does, times the window a match allows within that distance.
std::optional<cause> sum_evidence::missing_share(void (sum_evidence::*family)(const candidate_visitor&) const) const {
    const double distance = std::fabs(sum_.got - sum_.expected);
    const double grain = sum_.integer ? 1 : 0;  // ints: a window of one value
    const double window = sum_.integer ? 0 : sum_.tolerance;
    std::optional<candidate> match;
    std::size_t near = 0;
    (this->*family)([&](const candidate& c) {
        const double gap = std::fabs(c.value - sum_.got);
        near += gap <= distance;
        if (gap <= window && !match && std::fabs(c.value - sum_.expected) > window) match = c;
    });
    if (!match || static_cast<double>(near) * (2 * window + grain) > kChance * (2 * distance + grain))
        return std::nullopt;
    if (match->tail)
        return cause{cause_kind::dropped_tail,
                     fmt::format("likely cause: the value is that of the first {} of the {} terms (the last multiple "
                                 "of {}), without the {} after them: the remainder after a loop over groups of {} is "
                                 "not handled",
                                 match->end, count_, match->width, count_ - match->end, match->width)};
    return cause{cause_kind::one_block,
                 fmt::format("likely cause: the value is that of terms [{}, {}) alone, one block's share ({} of the "
                             "{}): the other blocks' shares are missing (a grid of one block, a loop that covers only "
                             "blockDim.x elements, or each block storing its partial result over the others' instead "
                             "of adding it)",
                             match->begin, match->end, match->end - match->begin, count_)};
}

// got = expected times -1, 2, 1/2, 3, 1/3, 4, 1/4 or (n +- 1) / n and its inverse: a wrong constant.
bool sum_evidence::simple_factor() const {
    const double n = static_cast<double>(count_);
    const double factors[] = {
        -1, 2, 0.5, 3, 1.0 / 3, 4, 0.25, (n - 1) / n, (n + 1) / n, n / (n + 1), n > 1 ? n / (n - 1) : 0};
    for (const double factor : factors)
        if (std::fabs(sum_.got - factor * sum_.expected) <= allowed()) return true;
    return false;
}

// An error of the size that float32 one at a time, or half precision, gives for these terms, well
// past the tolerance, and not one term or a simple factor: the logic is likely right, the
// precision is not.
std::optional<cause> sum_evidence::precision() const {
    const double error = std::fabs(sum_.got - sum_.expected);
    if (sum_.integer || !std::isfinite(sum_.got) || error <= 2 * sum_.tolerance) return std::nullopt;
    if (one_term_off_ || simple_factor()) return std::nullopt;
    const double float32_error = std::fabs(sum_.scale * float32_ - sum_.expected);
    if (float32_error > 2 * sum_.tolerance && error >= float32_error / 4 && error <= 4 * float32_error)
        return cause{
            cause_kind::float32_sum,
            fmt::format("likely cause: the error, {:.3g}, is the size of summing these {} terms in float32 one "
                        "at a time ({:.3g}): a long float32 running sum (one thread's loop, or an atomicAdd "
                        "per element into one value) loses the low bits of every term; add partial sums in a "
                        "tree, or accumulate in double",
                        error, count_, float32_error)};
    // The errors of the half orders above; an order that overflows bounds nothing.
    const double rounding_error = std::fabs(sum_.scale * half_terms_ - sum_.expected);
    double largest = rounding_error;
    const auto consider = [&](double half_sum) {
        if (std::isfinite(half_sum)) largest = std::max(largest, std::fabs(sum_.scale * half_sum - sum_.expected));
    };
    consider(half_);
    for (const auto& chunk : half_chunks_) consider(chunk.total + chunk.running);
    if (4 * largest > 2 * sum_.tolerance && error >= rounding_error / 4 && error <= 4 * largest)
        return cause{cause_kind::half_precision,
                     fmt::format("likely cause: the error, {:.3g}, is the size that half precision gives for {} {} "
                                 "(each term rounded to half: {:.3g}; half running sums: up to {:.3g}): accumulate in "
                                 "float, not in __half",
                                 error, count_, count_ == 1 ? "term" : "terms", rounding_error, largest)};
    return std::nullopt;
}

std::optional<cause> sum_evidence::likely_cause() const {
    if (count_ == 0 || std::fabs(sum_.got - sum_.expected) <= (sum_.integer ? 0 : sum_.tolerance)) return std::nullopt;
    if (auto share = missing_share(&sum_evidence::prefixes)) return share;
    if (auto share = missing_share(&sum_evidence::chunks)) return share;
    return precision();
}

}  // namespace gpujudge
