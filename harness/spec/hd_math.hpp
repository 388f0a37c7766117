#pragma once
// Arithmetic that rounds the same on the host and the device, so that both sides generate and judge
// bit for bit alike. Only correctly rounded double + - * / and conversions: on the device through
// the _rn intrinsics, which nvcc never contracts into an FMA; on the host plain operators (the
// harness compiles with -ffp-contract=off, and x86-64 without -march has no FMA anyway).
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GJ_HD __host__ __device__
#else
#define GJ_HD
#endif

namespace gpujudge::hd {

GJ_HD inline double add(double x, double y) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(x, y);
#else
    return x + y;
#endif
}

GJ_HD inline double sub(double x, double y) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(x, y);
#else
    return x - y;
#endif
}

GJ_HD inline double mul(double x, double y) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(x, y);
#else
    return x * y;
#endif
}

GJ_HD inline double from_u64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
    return __ull2double_rn(x);
#else
    return static_cast<double>(x);
#endif
}

GJ_HD inline double from_i64(std::int64_t x) {
#if defined(__CUDA_ARCH__)
    return __ll2double_rn(x);
#else
    return static_cast<double>(x);
#endif
}

// Round to nearest, ties to even, as a float's bit pattern.
GJ_HD inline std::uint32_t float_bits_rn(double x) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(__double2float_rn(x));
#else
    const float f = static_cast<float>(x);
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
#endif
}

GJ_HD inline double abs(double x) {
    return x < 0 ? -x : x;
}
GJ_HD inline bool is_nan(double x) {
    return x != x;
}
// Both sides' isinf differ in spelling only; comparing with the largest finite double needs none.
GJ_HD inline bool is_inf(double x) {
    return abs(x) > 1.7976931348623157e308;
}

}  // namespace gpujudge::hd
