// The child-process runner, end to end, with host-built fake solutions: no GPU needed.
#include "base/temp_dir.hpp"
#include "judging/declared_outcome.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"
#include "references/outputs.hpp"
#include "report/judgement.hpp"

#include <signal.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>

using namespace gpujudge;

namespace {

judge_context host_context() {
    become_subreaper();
    judge_context context;
    context.home = GPUJUDGE_SOURCE_DIR;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    return context;
}

const problem_spec& tiny_sum() {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return spec;
}

judgement judge_fake(const std::string& name) {
    judge_context context = host_context();
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timed = false;
    return judge_submission(tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/" + name + ".cpp", options, context);
}

std::vector<verdict> verdicts(const judgement& result) {
    std::vector<verdict> out;
    for (const auto& test : result.tests) out.push_back(test.result);
    return out;
}

int children_of_this_process() {
    return static_cast<int>(children_of(getpid()).size());
}

}  // namespace

TEST_CASE("a correct solution is accepted on every test", "[runner]") {
    const auto result = judge_fake("correct");
    CHECK(result.overall == verdict::accepted);
    CHECK(verdicts(result) == std::vector<verdict>(4, verdict::accepted));
}

TEST_CASE("a wrong answer names the element, the expected and the got value", "[runner]") {
    const auto result = judge_fake("off_by_one");
    CHECK(result.overall == verdict::wrong_answer);
    CHECK(result.tests[0].message.rfind("1 of 1 elements of 'output' differ from the reference", 0) == 0);
    CHECK(result.tests[0].message.find("output[0]: expected 6.5, got 3") != std::string::npos);
    CHECK(result.reason.rfind("test 'example': 1 of 1 elements", 0) == 0);
}

TEST_CASE("judging stops at the first failed test, the rest are skipped", "[runner]") {
    const auto result = judge_fake("off_by_one");
    CHECK(verdicts(result) ==
          std::vector<verdict>{verdict::wrong_answer, verdict::skipped, verdict::skipped, verdict::skipped});
    CHECK(result.tests[1].message == "not run after the first failure");
}

TEST_CASE("an output never written is reported as such", "[runner]") {
    const auto result = judge_fake("never_writes");
    CHECK(result.overall == verdict::wrong_answer);
    CHECK(result.tests[0].message.find("got nothing (never written)") != std::string::npos);
}

TEST_CASE("a wrong answer's likely cause from its inputs or the reference reaches its report and JSON",
          "[runner][cause]") {
    // tiny_sum declares its sum and a shift of N: the judge recomputes both after the wrong answer.
    const auto first_block = judge_fake("sums_first_block");  // right up to N = 32, wrong at N = 1000
    CHECK(shown_cause(first_block) == cause_kind::one_block);
    CHECK(first_block.tests[2].message.find("\n  likely cause: the value is that of terms [0, 32) alone") !=
          std::string::npos);
    CHECK(submission_json(tiny_sum(), "x.cu", first_block)["tests"][2]["cause"] == "one_block");
    CHECK(submission_json(tiny_sum(), "x.cu", first_block)["tests"][0]["cause"].is_null());
    CHECK(shown_cause(judge_fake("half_accumulator")) == cause_kind::half_precision);
    const auto skips_last = judge_fake("off_by_one");
    CHECK(skips_last.tests[0].message.find("likely cause: the output is the reference's with N - 1 (2 instead of "
                                           "3)") != std::string::npos);
    CHECK(shown_cause(judge_fake("never_writes")) == cause_kind::never_written);  // from the outputs alone
    CHECK_FALSE(shown_cause(judge_fake("correct")));
}

TEST_CASE("validate --run holds a wrong solution to its declared cause", "[runner][cause]") {
    const auto result = judge_fake("off_by_one");
    solution_file declared;
    declared.path = "off_by_one.cpp";
    declared.expected = verdict::wrong_answer;
    CHECK_FALSE(declaration_mismatch(declared, result));  // no cause declared: none required
    declared.cause = cause_kind::off_by_one;
    CHECK_FALSE(declaration_mismatch(declared, result));
    declared.cause = cause_kind::dropped_tail;
    CHECK(declaration_mismatch(declared, result)
              .value_or("")
              .rfind("declared cause dropped_tail, shown off_by_one (test 'example': 1 of 1 elements", 0) == 0);
    declared.cause = cause_kind::not_a_number;
    CHECK(declaration_mismatch(declared, judge_fake("correct")).value_or("") ==
          "declared wrong_answer, judged accepted");
}

TEST_CASE("validate --run holds a cheat to any verdict but accepted", "[runner][cause]") {
    solution_file cheat;
    cheat.path = "cheat.cpp";
    cheat.rejected = true;
    CHECK_FALSE(declaration_mismatch(cheat, judge_fake("off_by_one")));
    CHECK_FALSE(declaration_mismatch(cheat, judge_fake("crashes")));
    CHECK(declaration_mismatch(cheat, judge_fake("correct")).value_or("") == "declared rejected, judged accepted");
    judgement nothing_judged;
    nothing_judged.overall = verdict::no_device;
    nothing_judged.reason = "no CUDA device";
    CHECK(declaration_mismatch(cheat, nothing_judged).value_or("") ==
          "declared rejected, judged no_device (no CUDA device)");
}

TEST_CASE("validate --run holds a time cheat to benchmarks timed unblocked, by the host clock or charged its host time",
          "[runner][cause]") {
    solution_file cheat;
    cheat.path = "hides_work.cu";
    cheat.expected = verdict::accepted;
    cheat.timed_unblocked = true;
    judgement result = judge_fake("correct");
    CHECK(declaration_mismatch(cheat, result).value_or("") == "declared timed unblocked, but no benchmark was timed");
    bench_entry mine;  // the submission's entry is the report's last (reference points first)
    mine.source = cheat.path;
    bench_figures run;
    run.test = "N = 50000";
    run.result = verdict::accepted;
    run.median_us = 6.8;
    run.blocking = false;  // from before the call, launch latency in
    mine.figures.push_back(run);
    result.bench.emplace();
    result.bench->entries.push_back(mine);
    CHECK_FALSE(declaration_mismatch(cheat, result));
    bench_figures& figures = result.bench->entries.back().figures.back();
    figures.blocking = true;
    figures.host_clock = true;  // held back, but what hid from the events was seen
    CHECK_FALSE(declaration_mismatch(cheat, result));
    figures.host_clock = false;
    figures.solve_charge_us = 62.0;  // held back, charged for solve's host work
    CHECK_FALSE(declaration_mismatch(cheat, result));
    figures.solve_charge_us = 0;
    CHECK(declaration_mismatch(cheat, result).value_or("") ==
          "declared timed unblocked, but 'N = 50000' was timed held back, by the events alone (6.8 us)");
    cheat.timed_unblocked = false;  // an honest file may be timed any way
    CHECK_FALSE(declaration_mismatch(cheat, result));
}

namespace {

// A host fixture judged and timed on tiny_sum, all its tests.
judgement timed_tiny_sum(const std::string& name, const timed_settings& timing = {}) {
    judge_context context = host_context();
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timing = timing;
    return judge_submission(tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/" + name + ".cpp", options, context);
}

// The message of a timed fixture that must be impossible_time, its benchmark's too.
std::string impossible_time_message(const std::string& name, const timed_settings& timing = {}) {
    const auto result = timed_tiny_sum(name, timing);
    INFO(result.reason);
    CHECK(result.overall == verdict::impossible_time);
    REQUIRE(result.bench);
    const bench_figures& figures = result.bench->entries.back().figures.back();
    CHECK(figures.result == verdict::impossible_time);
    return figures.message;
}

}  // namespace

TEST_CASE("a solve that stops the runner's call timer in its process gets impossible_time from the judge's clock",
          "[runner][timing]") {
    // Its calls are slow and its clock says they are not: the warm-up and the samples are counted,
    // not timed on that clock, or its 150 ms calls would run for the warm-up's 0.3 s of its clock.
    timed_settings few_calls;
    few_calls.warmup_s = 0;
    few_calls.min_samples = few_calls.max_samples = 16;
    const std::string message = impossible_time_message("stops_the_runners_clock", few_calls);
    CHECK(message.rfind("the judge's clock saw ", 0) == 0);
    CHECK(message.find(" µs (measured before the library was loaded); a median of ") != std::string::npos);
    // The honest file's cycle is its median and the harness's share: timed as before.
    CHECK(timed_tiny_sum("correct").overall == verdict::accepted);
}

// No ': ' far into a test's name: Catch indents its wrapped lines there, and past the 76th column it
// wrote hyphens without end (150 GB of a -s run's output).
TEST_CASE("a solve that computes each data set once and replays it is impossible_time, its first calls standing out",
          "[runner][timing]") {
    const std::string message = impossible_time_message("replays_answers_per_data_set");
    CHECK(message.rfind("the first call on each of ", 0) == 0);
    CHECK(message.find(" µs for the calls around it on data sets seen before: answers computed once per data set and "
                       "replayed, whose work no timed median holds") != std::string::npos);
    // An honest solve whose first calls are slow whatever their data (a clock ramping up) is timed as before.
    const auto slow_start = timed_tiny_sum("slow_in_its_first_timed_calls");
    INFO(slow_start.reason);
    CHECK(slow_start.overall == verdict::accepted);
}

TEST_CASE(
    "a solve that holds back the runner's call line is held to the runner's turn on the judge's clock, and lines "
    "it seals meanwhile renew no turn",
    "[runner][timing]") {
    // The second also seals a `begin` of its test every half second during its held-back call.
    for (const std::string name : {"holds_back_its_call_line", "renews_its_turn"}) {
        INFO(name);
        const auto start = std::chrono::steady_clock::now();
        const auto result = judge_fake(name);
        CHECK(verdicts(result) == std::vector<verdict>{verdict::accepted, verdict::time_limit_exceeded,
                                                       verdict::skipped, verdict::skipped});
        CHECK(result.tests.at(1).message.rfind("the test's call, with the harness's work before and after it, did "
                                               "not finish within ",
                                               0) == 0);
        // 3 s calls took 8 minutes of samples before: the limit and the allowance for one test here.
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
    }
}

TEST_CASE("a crash is a runtime error, on the test that crashed", "[runner]") {
    const auto crash = judge_fake("crashes");
    CHECK(crash.overall == verdict::runtime_error);
    CHECK(crash.tests[0].message == "the process was killed by signal SIGSEGV (Segmentation fault) during solve");

    const auto partial = judge_fake("crashes_on_large");
    CHECK(verdicts(partial) ==
          std::vector<verdict>{verdict::accepted, verdict::accepted, verdict::runtime_error, verdict::skipped});
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("a C++ exception out of solve is a runtime error that says so, with its message", "[runner]") {
    const auto result = judge_fake("throws");
    CHECK(result.overall == verdict::runtime_error);
    CHECK(result.tests[0].message == "solve raised an exception:\nboom from solve");
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("exit() inside solve is a runtime error, not a pass", "[runner]") {
    const auto result = judge_fake("exits");
    CHECK(result.overall == verdict::runtime_error);
    CHECK(result.tests[0].message ==
          "solve ended the process (exit status 0): a submission must return from solve, not call exit()");
}

TEST_CASE("writes outside the output or into a const input are memory violations", "[runner]") {
    const auto past = judge_fake("writes_past_output");
    CHECK(past.overall == verdict::memory_violation);
    CHECK(past.tests[0].message ==
          "solve wrote past the end of 'output' (element [1] of a buffer of 1, the first element past its end)");
    const auto input = judge_fake("writes_input");
    CHECK(input.overall == verdict::memory_violation);
    CHECK(input.tests[0].message == "solve wrote into the const input 'input': input[1] was 2, now 3");
}

TEST_CASE("a hang is killed at the time limit, the rest is skipped and nothing survives", "[runner]") {
    const auto start = std::chrono::steady_clock::now();
    const auto result = judge_fake("hangs");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(result.overall == verdict::time_limit_exceeded);
    CHECK(result.tests[0].message == "solve did not finish within the time limit of 500 ms; the process was killed");
    CHECK(result.tests[1].result == verdict::skipped);
    CHECK(seconds < 30);
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("the runner's checks after a call are allowed for all the bytes they check, on the host's CPU too",
          "[runner]") {
    // reduction's largest test: 400 MB of const input made again from its recipe and compared on the CPU
    // after solve returned, 4 bytes of output. An allowance after the outputs alone made it a time limit
    // exceeded for every correct solve on the host backend.
    const problem_spec reduction = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");
    CHECK(post_call_allowance_ms(reduction, runner_backend::host) == 500 + 400000004 / 50e3);
    CHECK(post_call_allowance_ms(reduction, runner_backend::device) == 500 + 400000004 / 1e6);
    // A small problem's stays close to 500 ms: what solve leaves running is still caught within a second.
    CHECK(post_call_allowance_ms(tiny_sum(), runner_backend::host) < 510);
    judge_context context = host_context();
    judge_options options;
    for (std::size_t i = 0; i < reduction.tests.size(); ++i)
        if (reduction.tests[i].name == "N = 100000000 (maximum)") options.tests.push_back(static_cast<int>(i));
    REQUIRE(options.tests.size() == 1);
    options.timed = false;
    const auto result =
        judge_submission(reduction, GPUJUDGE_TEST_FIXTURES "/host_solutions/correct.cpp", options, context);
    INFO(result.tests[0].message);
    CHECK(result.overall == verdict::accepted);
}

TEST_CASE("a constructor that never returns is stopped at the load limit, not the harness's", "[runner]") {
    judge_context context = host_context();
    context.runner.load_limit_s = 1;
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timed = false;
    const auto result =
        judge_submission(tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/hangs_when_loaded.cpp", options, context);
    CHECK(result.overall == verdict::runtime_error);
    CHECK(result.tests[0].message ==
          "the runner did not load the library within 1 s: its static constructors ran that long");
    CHECK(result.tests[1].result == verdict::skipped);
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("a compiled solve that starts a thread, a process, a timer or a filter is stopped there, sandboxed or not",
          "[runner]") {
    // Python solves may start them: test_python_solutions.cpp shows the judge's sweep ending them.
    const std::string rule =
        "the submission started a thread or a process (clone, fork), armed a timer or installed a seccomp filter. "
        "A judged solve runs alone: nothing of it may work between the judge's calls, outside its clocks";
    for (const bool sandbox : {true, false}) {
        judge_context context = host_context();
        context.runner.sandbox = context.compiler.sandbox = sandbox;
        judge_options options;
        options.tests = select_tests(tiny_sum(), {});
        options.timed = false;
        for (const char* name : {"starts_a_thread", "forks_and_hangs", "arms_a_timer", "installs_a_seccomp_filter"}) {
            INFO(name << (sandbox ? ", sandboxed" : ", unsandboxed"));
            const auto result = judge_submission(
                tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/" + std::string(name) + ".cpp", options, context);
            CHECK(result.overall == verdict::runtime_error);
            CHECK(result.tests[0].message ==
                  "the process was stopped by signal SIGSYS (Bad system call) during solve: " + rule);
        }
        const auto loaded = judge_submission(
            tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/starts_a_thread_when_loaded.cpp", options, context);
        CHECK(loaded.overall == verdict::runtime_error);
        CHECK(loaded.tests[0].message ==
              "the runner was stopped by signal SIGSYS (Bad system call) while loading the library: " + rule);
    }
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("lines forged into the result channel end as a runtime error, never believed", "[runner][channel]") {
    const std::string forged =
        "the submission wrote into the judge's result channel (a line the runner did not seal, or not as the "
        "runner writes it); nothing it reported can be believed";
    SECTION("accepted results with valid test numbers, then exit") {
        const auto result = judge_fake("forges_results");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
        CHECK(verdicts(result) ==
              std::vector<verdict>{verdict::runtime_error, verdict::skipped, verdict::skipped, verdict::skipped});
    }
    SECTION("results for tests that do not exist") {
        const auto result = judge_fake("forges_unknown_tests");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
    }
    SECTION("a line sealed with the key read from the runner's memory, but not as the runner writes it") {
        const auto result = judge_fake("forges_malformed_sealed_line");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
    }
    SECTION("a line sealed with the key from memory whose JSON nests two million levels deep") {
        const auto result = judge_fake("forges_a_deeply_nested_line");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
    }
    SECTION("a call that starts again during itself, to restart the judge's clock") {
        const auto result = judge_fake("restarts_its_call_clock");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
    }
    SECTION("a sealed result whose verdict has a name no verdict has") {
        const auto result = judge_fake("forges_unknown_verdict");
        CHECK(result.overall == verdict::runtime_error);
        CHECK(result.tests[0].message == forged);
    }
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("sealed lines during a call move none of its deadlines: it ends at the time limit", "[runner][channel]") {
    const auto result = judge_fake("keeps_talking_during_its_call");
    CHECK(result.overall == verdict::time_limit_exceeded);
    CHECK(result.tests[0].message == "solve did not finish within the time limit of 500 ms; the process was killed");
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("a submission that closes the result channel gets a runtime error", "[runner][channel]") {
    const auto result = judge_fake("closes_channel");
    CHECK(result.overall == verdict::runtime_error);
    CHECK(result.tests[0].message ==
          "the result channel closed while the process kept running: the submission closed or replaced the judge's "
          "file descriptor");
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("reference work no longer wanted is dropped at once, and none is started after", "[runner]") {
    judge_context context = host_context();
    context.runner.reference_limit_s = 60;  // far longer than the test waits
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/broken_problems/reference_hang");
    reference_outputs references(spec, build_reference(spec, context), context.compiler.cache_dir, context.runner);
    const std::vector<reference_outputs::item> items{{1, {5, {}}, {}}};  // 'N = 5': its reference never returns
    auto pending = std::async(std::launch::async, [&] { return references.ensure(items, true); });
    CHECK(pending.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);  // it hangs
    references.cancel();
    REQUIRE(pending.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK_THROWS_AS(pending.get(), reference_outputs::cancelled);
    CHECK_THROWS_AS(references.ensure(items, true), reference_outputs::cancelled);
}

TEST_CASE("a sanitize run judges every test, on exact buffers that have no guards", "[runner][sanitize]") {
    judge_context context = host_context();
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timed = false;
    options.stop_at_failure = false;
    options.exact_buffers = true;
    const std::string dir = GPUJUDGE_TEST_FIXTURES "/host_solutions/";
    // No guard sees this write (the host space rounds allocations up to 256 bytes: it lands inside).
    const auto past = judge_submission(tiny_sum(), dir + "writes_past_output.cpp", options, context);
    CHECK(past.overall == verdict::accepted);
    const auto wrong = judge_submission(tiny_sum(), dir + "off_by_one.cpp", options, context);
    CHECK(verdicts(wrong) == std::vector<verdict>(4, verdict::wrong_answer));
}

TEST_CASE("a runner behind a launcher ends on its own, and the launcher's report is out before judging ends",
          "[runner][sanitize]") {
    judge_context context = host_context();
    const temp_dir folder("launcher");
    const std::string log = (folder.path() / "launcher_report.txt").string();
    // The stand-in for compute-sanitizer writes its report a second after the runner has exited;
    // it runs in the sandbox, in front of the runner, and writes into the folder bound for it.
    setenv("FAKE_SANITIZER_LOG", GPUJUDGE_TEST_FIXTURES "/sanitizer/memcheck_clean.txt", 1);
    setenv("GPUJUDGE_SANDBOX_ENV", "FAKE_SANITIZER_LOG", 1);
    context.runner.launcher = {GPUJUDGE_TEST_FIXTURES "/sanitizer/bin/compute-sanitizer", "--log-file", log};
    context.runner.launcher_writable = {folder.path()};
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timed = false;
    const auto result =
        judge_submission(tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/correct.cpp", options, context);
    unsetenv("FAKE_SANITIZER_LOG");
    unsetenv("GPUJUDGE_SANDBOX_ENV");
    CHECK(result.overall == verdict::accepted);
    std::ifstream report(log);
    std::string first;
    std::getline(report, first);
    CHECK(first == "========= COMPUTE-SANITIZER");
    CHECK(children_of_this_process() == 0);
}

TEST_CASE("a runner given a GPU sees it alone through its environment, sandboxed or not, with no launcher",
          "[runner][gpu]") {
    // The judge's own CUDA_VISIBLE_DEVICES (the sandbox keeps CUDA_*) is what a runner without a GPU
    // of its own sees; one given GPU 3 sees 3, numbered as nvidia-smi numbers (PCI bus order).
    setenv("CUDA_VISIBLE_DEVICES", "7", 1);
    unsetenv("CUDA_DEVICE_ORDER");
    judge_context context = host_context();
    const auto seen = [&](judge_context with) {
        judge_options options;
        options.tests = select_tests(tiny_sum(), {});
        options.timed = false;
        const auto result = judge_submission(
            tiny_sum(), GPUJUDGE_TEST_FIXTURES "/host_solutions/reports_visible_gpu.cpp", options, with);
        REQUIRE(result.overall == verdict::wrong_answer);
        return result.tests[0].message;
    };
    CHECK(seen(context).find("output[0]: expected 6.5, got 1007") != std::string::npos);
    context.runner.gpu = 3;
    REQUIRE(context.runner.launcher.empty());
    CHECK(seen(context).find("output[0]: expected 6.5, got 1103") != std::string::npos);
    context.runner.sandbox = false;
    CHECK(seen(context).find("output[0]: expected 6.5, got 1103") != std::string::npos);
    unsetenv("CUDA_VISIBLE_DEVICES");
    CHECK(runner_environment(context.runner, given_gpu(context.runner)) ==
          std::vector<std::pair<std::string, std::string>>{{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                                                           {"CUDA_VISIBLE_DEVICES", "3"}});
}
