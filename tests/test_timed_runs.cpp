// Timed runs are judged runs: fresh data in other buffers every call, every output verified.
// Host-built fakes stand in for kernels, so these run without a GPU.
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
                     runner_mode::bench, {{"min_samples", 12}, {"budget_s", 0.2}});
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
