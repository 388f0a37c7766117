#pragma once
// Counter-based input generation that the host and the device compute bit for bit alike: element i
// of a buffer depends only on (i, the generator, the key), so the GPU runner can fill device buffers
// directly while the CPU reference, in another process, generates the same data on the host.
#include "spec/hd_math.hpp"
#include "spec/problem_spec.hpp"

#include <cmath>
#include <cstdint>

namespace gpujudge {

// Philox4x32-10 (Salmon et al., Random123): 4 x 32 random bits from a 128-bit counter and 64-bit key.
struct philox_block {
    std::uint32_t v[4];
};

GJ_HD inline philox_block philox4x32_10(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                                        std::uint32_t k0, std::uint32_t k1) {
    constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
    constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += kWeyl0;
            k1 += kWeyl1;
        }
        const std::uint64_t p0 = std::uint64_t{kMul0} * c0;
        const std::uint64_t p1 = std::uint64_t{kMul1} * c2;
        const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
        const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
    }
    return {{c0, c1, c2, c3}};
}

// A generator made concrete for one buffer: plain data, passed to kernels by value.
struct generator_params {
    generator_kind kind = generator_kind::constant;
    double a = 0, b = 0;             // evaluated args: [lo, hi] / [mean, stddev] / [start, step] / constant value
    const double* values = nullptr;  // cycle and literal lists (a host pointer on the host; the device copy in kernels)
    std::uint64_t num_values = 0;
    std::uint64_t key = 0;  // derived from (seed, stream) by make_generator_params
};

namespace rng_detail {

// Draw `draw` of element `index`: no two elements or draws share a counter.
GJ_HD inline philox_block draw_block(const generator_params& p, std::uint64_t index, std::uint32_t draw) {
    return philox4x32_10(static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), draw, 0,
                         static_cast<std::uint32_t>(p.key), static_cast<std::uint32_t>(p.key >> 32));
}

GJ_HD inline std::uint64_t bits64(const philox_block& block) {
    return std::uint64_t{block.v[1]} << 32 | block.v[0];
}

GJ_HD inline double uniform_value(const generator_params& p, std::uint64_t index) {
    const double u = hd::mul(hd::from_u64(bits64(draw_block(p, index, 0)) >> 11), 0x1.0p-53);
    return hd::add(p.a, hd::mul(hd::sub(p.b, p.a), u));
}

// Irwin-Hall: the sum of 12 uniforms has mean 6 and variance 1; in integers the sum is exact, and
// so is z in double (|z| < 2^4, 32 fraction bits). No log or cos: their ulps differ between libms.
GJ_HD inline double normal_value(const generator_params& p, std::uint64_t index) {
    std::uint64_t sum = 0;
    for (std::uint32_t draw = 0; draw < 3; ++draw) {
        const philox_block block = draw_block(p, index, draw);
        sum += std::uint64_t{block.v[0]} + block.v[1] + block.v[2] + block.v[3];
    }
    const double z = hd::mul(hd::from_i64(static_cast<std::int64_t>(sum) - (std::int64_t{6} << 32)), 0x1.0p-32);
    return hd::add(p.a, hd::mul(p.b, z));
}

GJ_HD inline double integer_value(const generator_params& p, std::uint64_t index) {
#if defined(__CUDA_ARCH__)
    const auto lo = static_cast<std::int64_t>(ceil(p.a)), hi = static_cast<std::int64_t>(floor(p.b));
#else
    const auto lo = static_cast<std::int64_t>(std::ceil(p.a)), hi = static_cast<std::int64_t>(std::floor(p.b));
#endif
    if (hi < lo) return hd::from_i64(lo);  // an empty range: no modulo by zero
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t r = bits64(draw_block(p, index, 0));
    // A span of 2^64 wraps to 0: every 64-bit value is then in range.
    return hd::from_i64(lo + static_cast<std::int64_t>(span == 0 ? r : r % span));
}

GJ_HD inline double listed_value(const generator_params& p, std::uint64_t position) {
    return position < p.num_values ? p.values[position] : 0.0;
}

}  // namespace rng_detail

// Element `index` of the buffer, as a double that stored_bits then stores as float or int32.
GJ_HD inline double generated_value(const generator_params& p, std::uint64_t index) {
    switch (p.kind) {
        case generator_kind::uniform:
            return rng_detail::uniform_value(p, index);
        case generator_kind::normal:
            return rng_detail::normal_value(p, index);
        case generator_kind::integers:
            return rng_detail::integer_value(p, index);
        case generator_kind::constant:
            return p.a;
        case generator_kind::cycle:
            return p.num_values ? rng_detail::listed_value(p, index % p.num_values) : 0.0;
        case generator_kind::ramp:
            return hd::add(p.a, hd::mul(hd::from_u64(index), p.b));
        case generator_kind::literal:
            return rng_detail::listed_value(p, index);
    }
    return 0.0;
}

// A value as the 32 bits stored in a buffer. Floats round to nearest; ints truncate toward zero and
// saturate (NaN gives 0), as the device's conversion does, so out-of-range values agree too.
GJ_HD inline std::uint32_t stored_bits(double v, element_type t) {
    if (t == element_type::f32) return hd::float_bits_rn(v);
    if (hd::is_nan(v)) return 0;
    if (v >= 2147483647.0) return 0x7FFFFFFFu;
    if (v <= -2147483648.0) return 0x80000000u;
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
}

}  // namespace gpujudge
