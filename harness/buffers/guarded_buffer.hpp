#pragma once
// One buffer of solve's, with guard regions before and after it to catch writes out of bounds; or
// without (guard_bytes 0), an exact allocation, where compute-sanitizer must see an access past it.
#include "buffers/memory_space.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace gpujudge {

class guarded_buffer {
public:
    static constexpr std::size_t kGuardBytes = 64 * 1024;  // a multiple of 256: data stays aligned

    guarded_buffer(memory_space& space, std::size_t bytes, std::size_t guard_bytes = kGuardBytes);
    ~guarded_buffer();
    guarded_buffer(guarded_buffer&& other) noexcept;
    guarded_buffer& operator=(guarded_buffer&&) = delete;
    guarded_buffer(const guarded_buffer&) = delete;
    guarded_buffer& operator=(const guarded_buffer&) = delete;

    void* data() const { return static_cast<unsigned char*>(base_) + guard_bytes_; }
    std::size_t size_bytes() const { return bytes_; }

    void arm_guards();
    // Describes the first write into a guard ("wrote past the end of 'output' (element [1])"); none
    // without guards.
    std::optional<std::string> check_guards(const std::string& name) const;

private:
    memory_space* space_;
    void* base_ = nullptr;
    std::size_t bytes_;
    std::size_t guard_bytes_;
};

}  // namespace gpujudge
