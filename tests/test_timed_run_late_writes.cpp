// A timed call's outputs must be what the call left as its clock stopped: a word that changes between
// then and the shipping was written by work outside the call. A Python helper thread once held the
// C library's stdout lock, which the runner took to flush solve's prints after the clock: the runner
// waited while the helper worked out the answer, and every timed call read as the hand-off alone.
// The sample is read inside the host clock, so that what delays it is timed.
#include "buffers/data_set.hpp"
#include "buffers/memory_space.hpp"
#include "runs/timed_runs.hpp"
#include "spec/problem_spec.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gpujudge;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// tiny_sum's solve on the host that writes nothing from its `lazy_from`th call on: its answer comes later.
class lazy_solve final : public solve_function {
public:
    explicit lazy_solve(int lazy_from) : lazy_from_(lazy_from) {}
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const override {
        if (++calls_ >= lazy_from_) return std::nullopt;
        *static_cast<float*>(pointers[1]) = sum(pointers[0], scalars);
        return std::nullopt;
    }
    static float sum(const void* input, const scalar_values& scalars) {
        double total = 0;
        for (long i = 0; i < static_cast<long>(scalars.at("N")); ++i) total += static_cast<const float*>(input)[i];
        return static_cast<float>(total);
    }

private:
    int lazy_from_;
    mutable int calls_ = 0;
};

// The judge's end of the shipping, where the late answer lands first: a helper that finishes as the
// outputs are taken, before the judge compares them.
class answers_at_shipping final : public output_sink {
public:
    explicit answers_at_shipping(const scalar_values& scalars) : scalars_(scalars) {}
    bool ship(const buffer_set& buffers) override {
        auto* output = static_cast<float*>(buffers.at("output").data());
        *output = lazy_solve::sum(buffers.at("input").data(), scalars_);
        return true;
    }

private:
    const scalar_values& scalars_;
};

}  // namespace

TEST_CASE("an output written after a timed call's clock stopped, before it was shipped, is impossible_time",
          "[timed]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const test_spec& test = spec.tests.back();
    const auto space = make_host_space();
    std::vector<input_set> data_sets;
    for (std::uint64_t seed : {1, 2, 3}) data_sets.emplace_back(spec, *space, test, data_set_spec{seed, {}});
    timed_settings settings;
    settings.min_samples = 16;
    settings.warmup_s = 0.01;
    settings.min_time_s = 0.05;
    settings.budget_s = 0.2;
    call_listener announcer;
    answers_at_shipping judge(test.scalars);
    const lazy_solve honest(1000000);
    CHECK(run_timed(spec, *space, honest, test, data_sets, settings, 7, announcer, judge).outcome.result ==
          verdict::accepted);
    const lazy_solve lazy(4);
    const timed_result result = run_timed(spec, *space, lazy, test, data_sets, settings, 7, announcer, judge);
    INFO(result.outcome.message);
    CHECK(result.outcome.result == verdict::impossible_time);
    CHECK(contains(result.outcome.message, "timed run 4 ("));
    CHECK(contains(result.outcome.message,
                   "output[0] held 0xffffffff when solve's call had ended (returned, its work synchronised) "
                   "and 0x"));
    CHECK(contains(result.outcome.message,
                   " once its outputs were shipped: an answer written after the call was made outside it and cannot "
                   "be timed"));
}
