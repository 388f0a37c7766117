#include "buffers/guarded_buffer.hpp"

#include "checks/poison.hpp"

#include <fmt/format.h>

#include <vector>

namespace gpujudge {

guarded_buffer::guarded_buffer(memory_space& space, std::size_t bytes, std::size_t guard_bytes)
    : space_(&space), base_(space.allocate(bytes + 2 * guard_bytes)), bytes_(bytes), guard_bytes_(guard_bytes) {}

guarded_buffer::~guarded_buffer() {
    if (base_) space_->deallocate(base_);
}

guarded_buffer::guarded_buffer(guarded_buffer&& other) noexcept
    : space_(other.space_), base_(other.base_), bytes_(other.bytes_), guard_bytes_(other.guard_bytes_) {
    other.base_ = nullptr;
}

void guarded_buffer::arm_guards() {
    if (guard_bytes_ == 0) return;
    space_->fill(base_, kGuardByte, guard_bytes_);
    space_->fill(static_cast<unsigned char*>(data()) + bytes_, kGuardByte, guard_bytes_);
}

std::optional<std::string> guarded_buffer::check_guards(const std::string& name) const {
    if (guard_bytes_ == 0) return std::nullopt;
    std::vector<unsigned char> guard(guard_bytes_);
    space_->download(guard.data(), base_, guard_bytes_);
    // Scan the front guard from the buffer's start backwards: the nearest stray write matters most.
    for (std::size_t i = guard_bytes_; i-- > 0;) {
        if (guard[i] == kGuardByte) continue;
        const std::size_t distance = guard_bytes_ - i;
        return fmt::format("solve wrote before the start of '{}' ({} bytes before it, element [-{}])", name, distance,
                           (distance + 3) / 4);
    }
    space_->download(guard.data(), static_cast<unsigned char*>(data()) + bytes_, guard_bytes_);
    for (std::size_t i = 0; i < guard_bytes_; ++i) {
        if (guard[i] == kGuardByte) continue;
        return fmt::format("solve wrote past the end of '{}' (element [{}] of a buffer of {}{})", name,
                           bytes_ / 4 + i / 4, bytes_ / 4, i < 4 ? ", the first element past its end" : "");
    }
    return std::nullopt;
}

}  // namespace gpujudge
