// Timed runs are judged runs: fresh data in other buffers every call, every output verified.
// Host-built fakes stand in for kernels, so these run without a GPU.
#include "clock_choice.hpp"
#include "sample_stats.hpp"
#include "submission.hpp"
#include "subprocess.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

judge_run time_fake(const std::string& name) {
    become_subreaper();
    judge_context context;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const auto solution = compile_host(spec, GPUJUDGE_TEST_FIXTURES "/host_solutions/" + name + ".cpp", "solve",
                                       context.compiler);
    REQUIRE(solution.ok);
    const auto reference = build_reference(spec, context);
    return run_tests(spec, solution.library, reference, select_tests(spec, {test_kind::benchmark}), context.runner,
                     runner_mode::bench, {{"min_samples", 12}, {"min_time_s", 0.05}, {"budget_s", 0.2}});
}

}  // namespace

TEST_CASE("an honest solution gets timed samples and statistics", "[timed]") {
    const judge_run run = time_fake("correct");
    REQUIRE(run.tests.size() == 1);
    CHECK(run.tests[0].result == verdict::accepted);
    CHECK(run.tests[0].stats.at("count").get<int>() >= 12);
    CHECK(run.tests[0].stats.at("median_ms").get<double>() > 0);
}

TEST_CASE("answers cached by size, by pointer or by a few values are refused in timed runs", "[timed]") {
    for (const char* cheat : {"caches_by_size", "caches_by_pointer", "caches_by_first_values"}) {
        INFO(cheat);
        const judge_run run = time_fake(cheat);
        REQUIRE(run.tests.size() == 1);
        CHECK(run.tests[0].result == verdict::wrong_answer);
        CHECK(run.tests[0].message.find("timed run ") == 0);
    }
}

TEST_CASE("summary statistics of samples", "[timed]") {
    const sample_stats s = summarize({4, 1, 3, 2});
    CHECK(s.count == 4);
    CHECK(s.median == 2.5);
    CHECK(s.min == 1);
    CHECK(s.max == 4);
    CHECK(s.mean == 2.5);
    CHECK(s.stddev == Approx(1.2909944));
    CHECK(s.rse == Approx(1.2909944 / 2 / 2.5));
}

TEST_CASE("the host clock times a run only when its work hid from the events", "[timed]") {
    SECTION("a default-stream kernel with a few calls the host scheduler delayed keeps its event times") {
        std::vector<clock_reading> readings(100, {0.137, 0.139, 0.004});
        for (int i = 0; i < 20; ++i) readings[static_cast<std::size_t>(i * 5)].host_ms = 0.300;
        CHECK_FALSE(work_hid_from_events(readings));
        CHECK(summarize(call_times(readings, false)).max == 0.137);
    }
    SECTION("a kernel left running on a private stream is timed by the host clock") {
        const std::vector<clock_reading> readings(100, {0.004, 0.135, 0.003});
        REQUIRE(work_hid_from_events(readings));
        CHECK(summarize(call_times(readings, true)).median == 0.135);
    }
    SECTION("a sixth of the work hidden on another stream is enough") {
        const std::vector<clock_reading> readings(100, {0.114, 0.137, 0.003});
        CHECK(work_hid_from_events(readings));
    }
    SECTION("every sample takes the later clock, so events that saw more than the host never shrink") {
        const std::vector<clock_reading> readings{{0.010, 0.135}, {0.140, 0.135}, {0.010, 0.136}};
        CHECK(call_times(readings, true) == std::vector<double>{0.135, 0.140, 0.136});
    }
}

TEST_CASE("calls are held back until queued only while the events see all the work and outlast solve", "[timed]") {
    SECTION("a kernel that takes longer than its launch") {
        std::vector<clock_reading> readings(100, {0.137, 0.138, 0.004});
        readings[0].solve_ms = 0.900;  // the first call allocated its scratch
        CHECK(may_hold_back(readings));
    }
    SECTION("solve waits on the host for a kernel it ran on its own stream") {
        const std::vector<clock_reading> readings(100, {0.002, 0.001, 0.136});
        CHECK_FALSE(may_hold_back(readings));
    }
    SECTION("solve returns at once, its kernel running on its own stream") {
        const std::vector<clock_reading> readings(100, {0.002, 0.128, 0.001});
        CHECK_FALSE(may_hold_back(readings));
    }
    SECTION("solve's host work outweighs a tiny kernel") {
        const std::vector<clock_reading> readings(100, {0.006, 0.007, 0.020});
        CHECK_FALSE(may_hold_back(readings));
    }
}
