#pragma once
// The one rule that decides whether an output element matches the reference, shared by the host's
// comparison (compare.cpp) and the device's count of mismatches, which must agree element for element.
#include "spec/hd_math.hpp"

#include <cstdint>

namespace gpujudge {

// How far a finite output may be from the reference's `ref`: atol + rtol * |ref|.
GJ_HD inline double allowed_error(double ref, double atol, double rtol) {
    return hd::add(atol, hd::mul(rtol, hd::abs(ref)));
}

// NaN only against NaN, infinities only against the same infinity, else |got - ref| <= allowed_error,
// every operation rounded alike on both sides.
GJ_HD inline bool float_matches(double ref, double got, double atol, double rtol) {
    if (hd::is_nan(ref) || hd::is_nan(got)) return hd::is_nan(ref) && hd::is_nan(got);
    if (hd::is_inf(ref) || hd::is_inf(got)) return ref == got;
    return hd::abs(hd::sub(got, ref)) <= allowed_error(ref, atol, rtol);
}

// Integers compare by their exact bits.
GJ_HD inline bool int_matches(std::uint32_t ref_bits, std::uint32_t got_bits) {
    return ref_bits == got_bits;
}

}  // namespace gpujudge
