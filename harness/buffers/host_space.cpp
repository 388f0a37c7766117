#include "buffers/memory_space.hpp"
#include "inputs/generator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <vector>

namespace gpujudge {

namespace {

// Host memory has no events: both clocks are the host's.
class host_timer final : public call_timer {
public:
    void before_call() override {
        watch_.seed = seeds_();
        early_ = first_unpoisoned();
        start_ = std::chrono::steady_clock::now();
    }
    void after_finish() override {
        read_sample(at_finish_);  // inside the clock: whatever delays it is timed
        ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }
    double event_ms() const override { return ms_; }
    double host_ms() const override { return ms_; }
    double queue_ms() const override { return 0; }  // nothing is queued: host fakes do their work in the call
    double solve_ms() const override { return 0; }  // ...and that work is what the events stand for
    void watch(const poison_watch& outputs) override { watch_ = outputs; }
    std::optional<early_write> written_before_call() const override { return early_; }
    std::optional<late_write> written_after_call() override {
        std::uint32_t later[kSampleWords];
        read_sample(later);
        return first_change(watch_, at_finish_, later);
    }

private:
    // The watched outputs' sampled words (the seed of the call's watch), as first_change compares them.
    void read_sample(std::uint32_t* words) const {
        for_each_sampled_word(watch_, [&](int o, int slot, std::uint64_t word) {
            words[slot] = watch_.outputs[o].words[word];
            return true;
        });
    }

    // The same sample as the hold's check on the device (blocking_kernel.cu), lane by lane.
    std::optional<early_write> first_unpoisoned() const {
        std::optional<early_write> found;
        for_each_sampled_word(watch_, [&](int o, int, std::uint64_t word) {
            const watched_output& output = watch_.outputs[o];
            if (output.words[word] != output.poison) found = early_write{o, word, output.words[word]};
            return !found;
        });
        return found;
    }

    poison_watch watch_;
    std::mt19937_64 seeds_{std::random_device{}()};
    std::optional<early_write> early_;
    std::uint32_t at_finish_[kSampleWords] = {};
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
    void generate(void* dst, const generator_params& params, element_type type, std::size_t num_items) override {
        fill_generated(params, type, dst, num_items, alone_ ? 1 : 0);
    }
    void before_solve_alone() override { alone_ = true; }
    std::optional<std::size_t> first_ungenerated(const void* now, const generator_params& params, element_type type,
                                                 std::size_t num_items, const std::uint64_t* h_indices,
                                                 const std::uint32_t* h_bits, std::size_t num_changes) override {
        std::vector<std::uint32_t> original(num_items);
        generate(original.data(), params, type, num_items);
        scatter(original.data(), h_indices, h_bits, num_changes);
        const auto* words = static_cast<const std::uint32_t*>(now);
        const auto first = std::mismatch(original.begin(), original.end(), words).first;
        if (first == original.end()) return std::nullopt;
        return static_cast<std::size_t>(first - original.begin());
    }
    void scatter(void* dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                 std::size_t num_items) override {
        for (std::size_t i = 0; i < num_items; ++i)
            std::memcpy(static_cast<char*>(dst) + 4 * h_indices[i], &h_bits[i], 4);
    }
    call_status finish_call() override { return {}; }
    void flush_caches() override {}
    std::unique_ptr<call_timer> make_timer() override { return std::make_unique<host_timer>(); }

private:
    bool alone_ = false;  // generation on this thread alone
};

}  // namespace

std::unique_ptr<memory_space> make_host_space() {
    return std::make_unique<host_space>();
}

}  // namespace gpujudge
