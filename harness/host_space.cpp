#include "memory_space.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace gpujudge {

namespace {

class host_space final : public memory_space {
public:
    void* allocate(std::size_t bytes) override {
        void* pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
        if (!pointer) throw std::bad_alloc();
        return pointer;
    }
    void deallocate(void* pointer) noexcept override { std::free(pointer); }
    void upload(void* dst, const void* h_src, std::size_t bytes) override { std::memcpy(dst, h_src, bytes); }
    void download(void* h_dst, const void* src, std::size_t bytes) override { std::memcpy(h_dst, src, bytes); }
    void copy(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
    void fill(void* dst, unsigned char byte, std::size_t bytes) override { std::memset(dst, byte, bytes); }
    call_status finish_call() override { return {}; }
};

}  // namespace

std::unique_ptr<memory_space> make_host_space() { return std::make_unique<host_space>(); }

}  // namespace gpujudge
