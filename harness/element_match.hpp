#pragma once
// The one rule that decides whether an output element matches the reference, shared by the host's
// comparison (compare.cpp) and the device's count of mismatches, which must agree element for element.
#include "hd_math.hpp"

#include <cstdint>

namespace gpujudge {

// NaN only against NaN, infinities only against the same infinity, else |got - ref| <= atol + rtol * |ref|,
// every operation rounded alike on both sides.
GJ_HD inline bool float_matches(double ref, double got, double atol, double rtol) {
    if (hd::is_nan(ref) || hd::is_nan(got)) return hd::is_nan(ref) && hd::is_nan(got);
    if (hd::is_inf(ref) || hd::is_inf(got)) return ref == got;
    return hd::abs(hd::sub(got, ref)) <= hd::add(atol, hd::mul(rtol, hd::abs(ref)));
}

// Integers compare by their exact bits.
GJ_HD inline bool int_matches(std::uint32_t ref_bits, std::uint32_t got_bits) {
    return ref_bits == got_bits;
}

}  // namespace gpujudge
