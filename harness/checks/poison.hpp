#pragma once
// Byte patterns the harness writes where the submission must not or has not yet written.
#include "spec/problem_spec.hpp"

#include <cstdint>

namespace gpujudge {

// Every output element before solve: NaN (0xFFFFFFFF) for floats, 0xA5A5A5A5 for ints,
// so an element left unwritten can never pass and is reported as such.
constexpr unsigned char kFloatPoisonByte = 0xFF;
constexpr unsigned char kIntPoisonByte = 0xA5;
// The guard regions before and after every buffer.
constexpr unsigned char kGuardByte = 0xCD;

inline unsigned char poison_byte(element_type type) {
    return type == element_type::f32 ? kFloatPoisonByte : kIntPoisonByte;
}
inline std::uint32_t poison_word(element_type type) {
    return 0x01010101u * poison_byte(type);
}

}  // namespace gpujudge
