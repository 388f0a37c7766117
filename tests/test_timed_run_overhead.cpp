// What a timed run takes off its host readings: empty calls made in the state each timed call left,
// so that state a solve leaves behind between its calls cannot shorten every reading.
#include "buffers/data_set.hpp"
#include "buffers/memory_space.hpp"
#include "runs/timed_runs.hpp"
#include "spec/problem_spec.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace gpujudge;

namespace {

// Host memory whose synchronise takes 3 ms while `slow` is set: a device switched to blocking
// synchronisation, as a solve can leave it after its untimed calls.
class slowed_space final : public memory_space {
public:
    bool slow = false;

    void* allocate(std::size_t bytes) override { return host_->allocate(bytes); }
    void deallocate(void* pointer) noexcept override { host_->deallocate(pointer); }
    void upload(void* dst, const void* h_src, std::size_t bytes) override { host_->upload(dst, h_src, bytes); }
    void download(void* h_dst, const void* src, std::size_t bytes) override { host_->download(h_dst, src, bytes); }
    void copy(void* dst, const void* src, std::size_t bytes) override { host_->copy(dst, src, bytes); }
    void fill(void* dst, unsigned char byte, std::size_t bytes) override { host_->fill(dst, byte, bytes); }
    void generate(void* dst, const generator_params& params, element_type type, std::size_t num_items) override {
        host_->generate(dst, params, type, num_items);
    }
    void scatter(void* dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                 std::size_t num_items) override {
        host_->scatter(dst, h_indices, h_bits, num_items);
    }
    std::optional<std::size_t> first_ungenerated(const void* now, const generator_params& params, element_type type,
                                                 std::size_t num_items, const std::uint64_t* h_indices,
                                                 const std::uint32_t* h_bits, std::size_t num_changes) override {
        return host_->first_ungenerated(now, params, type, num_items, h_indices, h_bits, num_changes);
    }
    call_status finish_call() override {
        if (slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
        return host_->finish_call();
    }
    void flush_caches() override {}
    std::unique_ptr<call_timer> make_timer() override { return host_->make_timer(); }

private:
    std::unique_ptr<memory_space> host_ = make_host_space();
};

// tiny_sum's solve on the host that switches the slow synchronise off for its own calls.
class fast_for_itself final : public solve_function {
public:
    explicit fast_for_itself(slowed_space& space) : space_(space) {}
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const override {
        space_.slow = false;
        const auto* input = static_cast<const float*>(pointers[0]);
        double sum = 0;
        for (long i = 0; i < static_cast<long>(scalars.at("N")); ++i) sum += input[i];
        *static_cast<float*>(pointers[1]) = static_cast<float>(sum);
        return std::nullopt;
    }

private:
    slowed_space& space_;
};

class accepts_all final : public output_sink {
public:
    bool ship(const buffer_set&) override { return true; }
};

}  // namespace

TEST_CASE("the empty call taken off is made after each timed call, not in the state solve left before", "[timed]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const test_spec& test = spec.tests.back();
    slowed_space space;
    std::vector<input_set> data_sets;
    for (std::uint64_t seed : {1, 2, 3}) data_sets.emplace_back(spec, space, test, data_set_spec{seed, {}});
    timed_settings settings;
    settings.min_samples = 16;
    settings.warmup_s = 0.01;
    settings.min_time_s = 0.05;
    settings.budget_s = 0.2;
    const fast_for_itself solve(space);
    call_listener announcer;
    accepts_all judge;
    space.slow = true;  // as the solve's untimed calls left it
    const timed_result result = run_timed(spec, space, solve, test, data_sets, settings, 7, announcer, judge);
    REQUIRE(result.outcome.result == verdict::accepted);
    // Measured before the first call, the empty call took the 3 ms synchronise, and every host reading
    // came out about 3 ms short (below zero).
    CHECK(result.host_overhead_ms < 1.0);
    CHECK(median_of(result.readings, &clock_reading::host_ms) > -1.0);
}
