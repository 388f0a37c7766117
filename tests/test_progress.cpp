// Progress on a terminal: what the line says and when it is drawn (with made-up times), and the
// steps the judge reports through its hook.
#include "base/progress.hpp"
#include "judging/modes.hpp"
#include "process/child_process.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;
using namespace std::chrono_literals;

namespace {

using stage = progress_step::stage;
const progress_line::clock::time_point t0{};

}  // namespace

TEST_CASE("progress steps read as the phase and the test in progress", "[progress]") {
    CHECK(describe({stage::compiling, 0, 0, ""}) == "compiling");
    CHECK(describe({stage::references, 0, 0, ""}) == "computing expected outputs");
    CHECK(describe({stage::testing, 3, 7, "N = 1000"}) == "test 3 of 7: N = 1000");
    CHECK(describe({stage::timing, 2, 3, "N = 100000"}) == "timing size 2 of 3: N = 100000");
    // validate's steps: a problem of the catalog, a file of all the solutions
    CHECK(describe({stage::references, 2, 18, "softmax"}) == "checking problem 2 of 18: softmax");
    CHECK(describe({stage::compiling, 40, 131, "naive.cu"}) == "compiling 40 of 131: naive.cu");
}

TEST_CASE("the progress line stays blank for the first second, then shows the step and the time", "[progress]") {
    progress_line line(t0, 1s);
    CHECK_FALSE(line.frame(t0 + 500ms));  // nothing to show yet
    line.set({stage::compiling, 0, 0, ""});
    CHECK_FALSE(line.frame(t0 + 999ms));
    CHECK(line.clear().empty());  // work done within the second leaves no trace
    CHECK(line.frame(t0 + 1s) == std::optional<std::string>("\rcompiling (1 s)\x1b[K"));
}

TEST_CASE("the progress line is written again only when its text changes", "[progress]") {
    progress_line line(t0, 1s);
    line.set({stage::testing, 1, 3, "example"});
    CHECK(line.frame(t0 + 1100ms) == std::optional<std::string>("\rtest 1 of 3: example (1 s)\x1b[K"));
    CHECK_FALSE(line.frame(t0 + 1200ms));
    line.set({stage::testing, 2, 3, "N = 5"});
    CHECK(line.frame(t0 + 1300ms) == std::optional<std::string>("\rtest 2 of 3: N = 5 (1 s)\x1b[K"));
    CHECK(line.frame(t0 + 2s) == std::optional<std::string>("\rtest 2 of 3: N = 5 (2 s)\x1b[K"));
    CHECK(line.clear() == "\r\x1b[K");
    CHECK(line.clear().empty());  // erased once
}

TEST_CASE("a progress line never wraps: long test names are cut to the width", "[progress]") {
    progress_line line(t0, 0s);
    line.set({stage::testing, 1, 1, std::string(200, 'x')});
    const auto text = line.frame(t0 + 12s);
    REQUIRE(text);
    CHECK(text->size() == progress_line::kWidth + std::string("\r\x1b[K").size());
    CHECK(text->find("x (12 s)\x1b[K") != std::string::npos);
}

TEST_CASE("the judge reports compiling, each test and each timed size through its hook", "[progress]") {
    become_subreaper();
    judge_context context;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    std::vector<std::string> said;
    context.progress = [&](const progress_step& step) { said.push_back(describe(step)); };
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    judge_options options;
    options.tests = select_tests(spec, {});
    options.with_baseline = false;
    options.timing = quick_timing();
    const judgement result =
        judge_submission(spec, GPUJUDGE_TEST_FIXTURES "/host_solutions/correct.cpp", options, context);
    REQUIRE(result.overall == verdict::accepted);
    CHECK(said == std::vector<std::string>{"compiling", "computing expected outputs", "test 1 of 4: example",
                                           "test 2 of 4: N = 5", "test 3 of 4: N = 1000", "test 4 of 4: N = 100000",
                                           "timing size 1 of 1: N = 100000"});
}
