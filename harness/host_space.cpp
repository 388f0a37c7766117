#include "memory_space.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

namespace gpujudge {

namespace {

// Host memory has no events: both clocks are the host's.
class host_timer final : public call_timer {
public:
    void before_call() override { start_ = std::chrono::steady_clock::now(); }
    void after_finish() override {
        ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }
    double event_ms() const override { return ms_; }
    double host_ms() const override { return ms_; }
    double queue_ms() const override { return 0; }  // nothing is queued: host fakes do their work in the call

private:
    std::chrono::steady_clock::time_point start_;
    double ms_ = 0;
};

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
    void flush_caches() override {}
    std::unique_ptr<call_timer> make_timer() override { return std::make_unique<host_timer>(); }
};

}  // namespace

std::unique_ptr<memory_space> make_host_space() { return std::make_unique<host_space>(); }

}  // namespace gpujudge
