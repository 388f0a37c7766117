// Timed runs are judged runs: fresh data in other buffers every call, every output verified.
// Host-built fakes stand in for kernels, so these run without a GPU.
#include "base/problem_error.hpp"
#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "judging/modes.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"
#include "timing/clock_choice.hpp"
#include "timing/sample_stats.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

using namespace gpujudge;

namespace {

timed_settings short_timing() {
    timed_settings settings;
    settings.min_samples = 12;
    settings.warmup_s = 0.01;
    settings.min_time_s = 0.05;
    settings.budget_s = 0.2;
    return settings;
}

judgement judge_fake_as(const problem_spec& spec, const std::string& name, judge_options options,
                        std::optional<double> assumed_peak_gbps = std::nullopt, history* results = nullptr) {
    become_subreaper();
    judge_context context;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    context.assumed_peak_gbps = assumed_peak_gbps;
    context.results = results;
    options.timing = short_timing();
    options.with_baseline = false;
    return judge_submission(spec, GPUJUDGE_TEST_FIXTURES "/host_solutions/" + name + ".cpp", options, context);
}

judgement time_fake_on(const problem_spec& spec, const std::string& name,
                       std::optional<double> assumed_peak_gbps = std::nullopt, history* results = nullptr) {
    judge_options options;
    options.tests = select_tests(spec, {});
    return judge_fake_as(spec, name, options, assumed_peak_gbps, results);
}

judgement time_fake(const std::string& name, std::optional<double> assumed_peak_gbps = std::nullopt,
                    history* results = nullptr) {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return time_fake_on(spec, name, assumed_peak_gbps, results);
}

// An accepted report of the spec's last test (its largest benchmark), with timing figures to fill in.
test_report last_benchmark_accepted(const problem_spec& spec) {
    const int index = static_cast<int>(spec.tests.size()) - 1;
    return {
        index, spec.tests[index].name, test_kind::benchmark, verdict::accepted, "", 0, timing_summary{}, std::nullopt,
        0};
}

}  // namespace

TEST_CASE("an honest solution gets timed samples and statistics", "[timed]") {
    const judgement result = time_fake("correct");
    CHECK(result.overall == verdict::accepted);
    const bench_entry* timed = submission_entry(result);
    REQUIRE(timed);
    REQUIRE(timed->figures.size() == 1);
    CHECK(timed->figures[0].result == verdict::accepted);
    CHECK(timed->figures[0].samples >= 12);
    CHECK(timed->figures[0].median_us > 0);
}

TEST_CASE("answers cached by size, pointer, call count or a sample of the input are refused", "[timed]") {
    for (const char* cheat : {"caches_by_size", "caches_by_pointer", "caches_by_first_values",
                              "caches_by_middle_sample", "caches_by_call_count"}) {
        INFO(cheat);
        const judgement result = time_fake(cheat);
        CHECK(result.overall == verdict::wrong_answer);
        CHECK(result.reason.rfind("timed run on 'N = 100000': timed run ", 0) == 0);
    }
}

TEST_CASE("where a few thousand changes hide in the tolerance, 65536 tell a variant apart", "[timed]") {
    // tiny_mean_square's tolerance swallows the first round's changes (at most 4096 of 1M elements):
    // only the second round's variants differ from the test's own data by more than it.
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/wide_tolerance_problems/tiny_mean_square");
    CHECK(time_fake_on(spec, "mean_square").overall == verdict::accepted);
    const judgement cached = time_fake_on(spec, "caches_mean_square_by_size");
    CHECK(cached.overall == verdict::wrong_answer);
    CHECK(cached.reason.rfind("timed run on 'N = 1000000': timed run ", 0) == 0);
}

TEST_CASE("a benchmark whose answer its data cannot change is said aloud, or with constant inputs refused", "[timed]") {
    // The largest of 100000 values in {0, 1} is 1 in every variant: timed, with a warning (a count of rare
    // values moves in some draws only). Inputs constant in the test and in the problem give no variants
    // at all: a problem error. Either way one answer would pass every timed run.
    const std::string folder = GPUJUDGE_TEST_FIXTURES "/predictable_problems/";
    const problem_spec saturated = load_problem(folder + "tiny_max");
    std::ostringstream log;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
    spdlog::default_logger()->sinks().push_back(sink);
    const judgement timed = time_fake_on(saturated, "largest");
    spdlog::default_logger()->sinks().pop_back();
    CHECK(timed.overall == verdict::accepted);
    CHECK(log.str().find(folder +
                         "tiny_max/problem.yaml:28: benchmark 'N = 100000': none of 13 variants of its data "
                         "(16 to 65536 elements changed) changes its expected outputs beyond the tolerance, so "
                         "a solve that writes its answer without reading its inputs would pass every timed run; "
                         "give it data whose answer depends on them") != std::string::npos);
    const problem_spec constant = load_problem(folder + "constant_max");
    CHECK_THROWS_WITH(time_fake_on(constant, "largest"),
                      folder +
                          "constant_max/problem.yaml:28: benchmark 'N = 100000': every input is constant here "
                          "and in the problem's generators, so a solve that writes its answer without reading "
                          "its inputs would pass every timed run; give it data whose answer depends on them");
    CHECK_THROWS_AS(time_fake_on(constant, "largest"), problem_error);
}

TEST_CASE("a time below the physical floor is refused and never recorded", "[timed][floor]") {
    const std::string db = GPUJUDGE_TEST_CACHE "/floor-history.db";
    std::filesystem::remove(db);
    history results(db);
    const std::string version = problem_version(load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum"));
    // A ceiling of 1 kB/s: the 400 kB this benchmark must read take 400 s, so any real time is impossible.
    const judgement refused = time_fake("correct", 1e-6, &results);
    CHECK(refused.overall == verdict::impossible_time);
    CHECK(refused.reason.find("faster than the memory system allows") != std::string::npos);
    CHECK_FALSE(results.best("tiny_sum", version, "N = 100000"));
    // The same solution under a ceiling it cannot beat is timed and recorded.
    const judgement kept = time_fake("correct", 1e9, &results);
    CHECK(kept.overall == verdict::accepted);
    CHECK(results.best("tiny_sum", version, "N = 100000"));
}

TEST_CASE("only a submit that judged every test keeps its times: --tests and profile keep none", "[timed]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const std::string db = GPUJUDGE_TEST_CACHE "/subset-history.db";
    std::filesystem::remove(db);
    history results(db);
    const std::string version = problem_version(spec);
    // Right at the benchmark's size alone: judged on the benchmark alone, it passes and is timed.
    const judgement subset = judge_fake_as(spec, "wrong_below_benchmark_size",
                                           submit_options(spec, {test_kind::benchmark}, true), std::nullopt, &results);
    CHECK(subset.overall == verdict::accepted);
    CHECK(subset.bench);
    const int benchmark = static_cast<int>(spec.tests.size()) - 1;
    CHECK(judge_fake_as(spec, "correct", profile_options(benchmark), std::nullopt, &results).overall ==
          verdict::accepted);
    CHECK_FALSE(results.best("tiny_sum", version, "N = 100000"));
    CHECK_FALSE(results.best_attempt("tiny_sum", version));  // history's personal bests, from the attempts
    CHECK(judge_fake_as(spec, "wrong_below_benchmark_size", submit_options(spec, {}, true), std::nullopt, &results)
              .overall == verdict::wrong_answer);
    CHECK(judge_fake_as(spec, "correct", submit_options(spec, {}, true), std::nullopt, &results).overall ==
          verdict::accepted);
    CHECK(results.best("tiny_sum", version, "N = 100000"));
    REQUIRE(results.best_attempt("tiny_sum", version));
    CHECK(results.best_attempt("tiny_sum", version)->source.find("correct.cpp") != std::string::npos);
}

TEST_CASE("the floor is the problem's bytes at the measured ceiling, with a margin", "[floor]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    test_report report = last_benchmark_accepted(spec);
    // 400004 bytes at 1000 GB/s take 0.400 µs; the floor allows 3 % more speed: 0.3884 µs.
    report.timing->stats.median = 0.000389;  // ms
    CHECK(figures_of(spec, report, 1000, 0).result == verdict::accepted);
    report.timing->stats.median = 0.000388;  // ms
    const bench_figures refused = figures_of(spec, report, 1000, 0);
    CHECK(refused.result == verdict::impossible_time);
    CHECK(refused.message.rfind("0.4 µs is faster than the memory system allows", 0) == 0);
    CHECK(figures_of(spec, report, 0, 0).result == verdict::accepted);  // no ceiling known: no floor

    SECTION("a run timed by the host clock is held to it with the empty call's overhead left on") {
        report.timing->host_clock = true;
        report.timing->host_overhead_ms = 0.000002;
        report.timing->stats.median = 0.000387;  // 0.389 µs with its overhead
        CHECK(figures_of(spec, report, 1000, 0).result == verdict::accepted);
        report.timing->stats.median = 0.000386;  // 0.388 µs with its overhead
        const bench_figures host_refused = figures_of(spec, report, 1000, 0);
        CHECK(host_refused.result == verdict::impossible_time);
        CHECK(host_refused.message.rfind(
                  "0.4 µs (the host clock, 0.4 µs with its overhead) is faster than the memory system allows", 0) == 0);
    }
    SECTION("of the overhead the runner reports, no more than an estimate's error is believed") {
        // A ceiling of 1 GB/s: the floor is 388 µs. A forged result claiming 1000 s of overhead.
        report.timing->host_clock = true;
        report.timing->host_overhead_ms = 1e6;
        report.timing->stats.median = 1e-6;  // ms
        CHECK(figures_of(spec, report, 1, 0).result == verdict::impossible_time);
        report.timing->host_overhead_ms = -1e6;  // nor does a negative one lower it
        report.timing->stats.median = 0.389;
        CHECK(figures_of(spec, report, 1, 0).result == verdict::accepted);
    }
    SECTION("a run timed by its events gets no such allowance") {
        report.timing->host_overhead_ms = 0.000002;
        report.timing->stats.median = 0.000387;
        CHECK(figures_of(spec, report, 1000, 0).result == verdict::impossible_time);
    }
}

TEST_CASE("the floor leaves out half of the written bytes the L2 can hold when the clocks stop", "[floor]") {
    // 10000 x 1024 floats in, as many out: 81928192 bytes, 40960000 of them written.
    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/batch_normalization");
    test_report report = last_benchmark_accepted(spec);
    const double l2_bytes = 50 << 20;
    // A copy of as many bytes took 25.0 µs in a probe on an H100 (3070 GB/s), under the 25.9 µs of all 82 MB.
    report.timing->stats.median = 0.025;  // ms
    CHECK(figures_of(spec, report, 3070, 0).result == verdict::impossible_time);
    CHECK(figures_of(spec, report, 3070, l2_bytes).result == verdict::accepted);
    // Half of the writes stay: 81928192 - 20480000 bytes at 3000 GB/s less 3 % take 19.886 µs.
    report.timing->stats.median = 0.01989;
    CHECK(figures_of(spec, report, 3000, l2_bytes).result == verdict::accepted);
    report.timing->stats.median = 0.01988;
    const bench_figures refused = figures_of(spec, report, 3000, l2_bytes);
    CHECK(refused.result == verdict::impossible_time);
    CHECK(refused.message ==
          "19.9 µs is faster than the memory system allows: the 81928192 bytes this call must move, less half of "
          "the 40960000 written bytes that can still be in the L2 when it ends, take at least 19.9 µs at the "
          "device's measured ceiling of 3000 GB/s (less a 3 % margin), so its answers did not come from reading "
          "its inputs");
    // An L2 smaller than the writes holds only its own size: (81928192 - 10000000) bytes take 23.28 µs.
    report.timing->stats.median = 0.0232;
    CHECK(figures_of(spec, report, 3000, 20e6).result == verdict::impossible_time);
    report.timing->stats.median = 0.0233;
    CHECK(figures_of(spec, report, 3000, 20e6).result == verdict::accepted);
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
        CHECK_FALSE(work_hid_from_events(readings, true));
        CHECK_FALSE(work_hid_from_events(readings, false));
        CHECK(summarize(call_times(readings, false)).max == 0.137);
    }
    SECTION("a kernel left running on a private stream is timed by the host clock") {
        const std::vector<clock_reading> readings(100, {0.004, 0.135, 0.003});
        REQUIRE(work_hid_from_events(readings, false));
        CHECK(summarize(call_times(readings, true)).median == 0.135);
    }
    SECTION("a sixth of the work hidden on another stream is enough") {
        const std::vector<clock_reading> readings(100, {0.114, 0.137, 0.003});
        CHECK(work_hid_from_events(readings, false));
    }
    SECTION("held back, a private kernel running 4.7 us past a 5.5 us pad is seen; unblocked slack would miss it") {
        const std::vector<clock_reading> readings(100, {0.0055, 0.0102, 0.009, 0.006});
        CHECK(work_hid_from_events(readings, true));
        CHECK_FALSE(work_hid_from_events(readings, false));
        CHECK_FALSE(may_hold_back(readings));
        CHECK(why_not_held_back(readings) ==
              "the host clock's median, 10.2 us, exceeded the events' 5.5 us over 100 calls");
    }
    SECTION("held back, honest runs read at most 0.6 % more on the host clock: within the slack") {
        CHECK_FALSE(work_hid_from_events(std::vector<clock_reading>(100, {0.705, 0.7092, 0.004, 0.006}), true));
        CHECK_FALSE(work_hid_from_events(std::vector<clock_reading>(100, {0.00826, 0.00874, 0.006, 0.006}), true));
    }
    SECTION("held back, a call that broke a rule counts with the host work it may have hidden") {
        std::vector<clock_reading> readings;
        for (int i = 0; i < 45; ++i) readings.push_back({0.010, 0.010, 0.006, 0.008, 0.150});  // a host function
        for (int i = 0; i < 55; ++i) {
            const double event_ms = 0.090 + 0.020 * i / 54;  // honest calls, 90-110 us
            readings.push_back({event_ms, event_ms, 0.006, 0.008});
        }
        REQUIRE(may_hold_back(readings));
        const std::vector<double> times = held_call_times(readings);
        CHECK(times[0] == Approx(0.010 + 0.006 + 0.150));
        CHECK(times[99] == 0.110);
        // By the events the median is the 6th fastest honest call: 45 cheating calls pull it down.
        CHECK(summarize(call_times(readings, false)).median < 0.0925);
        CHECK(summarize(times).median > 0.100);
    }
    SECTION("every sample takes the later clock, so events that saw more than the host never shrink") {
        const std::vector<clock_reading> readings{{0.010, 0.135}, {0.140, 0.135}, {0.010, 0.136}};
        CHECK(call_times(readings, true) == std::vector<double>{0.135, 0.140, 0.136});
    }
}

TEST_CASE("calls are held back until queued only while the events see all the work and no other thread works",
          "[timed]") {
    SECTION("a kernel that takes longer than its launch") {
        std::vector<clock_reading> readings(100, {0.137, 0.138, 0.004});
        readings[0].solve_ms = 0.900;  // the first call allocated its scratch
        CHECK(may_hold_back(readings));
    }
    SECTION("solve computes on the host: held back, charged its host time past its events and one launch") {
        const std::vector<clock_reading> readings(100, {0.002, 0.001, 0.136, 0.010});
        CHECK(may_hold_back(readings));
        CHECK(solve_charge_ms(readings) == Approx(0.124));  // 136 us less 2 us of events and 10 of launch
        CHECK(summarize(held_call_times(readings)).median == Approx(0.126));
    }
    SECTION("solve returns at once, its kernel running on its own stream") {
        const std::vector<clock_reading> readings(100, {0.002, 0.128, 0.001});
        CHECK_FALSE(may_hold_back(readings));
    }
    SECTION("solve's host work outweighs a tiny kernel: what passes its events and one launch is charged") {
        const std::vector<clock_reading> readings(100, {0.006, 0.007, 0.020, 0.010});
        CHECK(may_hold_back(readings));
        CHECK(held_call_times(readings).front() == Approx(0.010));  // 6 us of events, 20 - 16 us of host time
    }
    SECTION("a kernel shorter than its launch with the caches cold, as long as the hold's own launch") {
        std::vector<clock_reading> readings(100, {0.0085, 0.0086, 0.0098, 0.0095});
        CHECK(solve_charge_ms(readings) == 0);
        CHECK(held_call_times(readings).front() == 0.0085);
        for (auto& r : readings) r.launch_ms = 0;  // no launch allowed for: what solve outlasts its kernel by
        CHECK(may_hold_back(readings));
        CHECK(held_call_times(readings).front() == Approx(0.0098));
    }
    SECTION("one launch is allowed for, the hold's own: a call counts its events or solve's host time less that") {
        std::vector<clock_reading> readings(100, {0.003, 0.003, 0.0085, 0.006});
        CHECK(solve_charge_ms(readings) == 0);
        CHECK(held_call_times(readings).front() == 0.003);
        for (auto& r : readings) r.solve_ms = 0.011;
        CHECK(held_call_times(readings).front() == Approx(0.005));
    }
    SECTION("the charge grows with solve's host time, with no step where a longer kernel reads faster") {
        // A 6.4 us kernel whose launch took 12-14 us on the host (a cooperative launch, the caches cold),
        // and the same kernel padded to 7 us: each call's time grows with its host time, and the padded
        // kernel never reads faster than the unpadded one.
        for (double solve_us = 12.0; solve_us <= 14.0; solve_us += 0.25) {
            const std::vector<clock_reading> bare(100, {0.0064, 0.0065, solve_us / 1e3, 0.0070});
            const std::vector<clock_reading> padded(100, {0.0070, 0.0071, solve_us / 1e3, 0.0070});
            INFO(solve_us);
            REQUIRE(may_hold_back(bare));
            CHECK(held_call_times(bare).front() <= held_call_times(padded).front());
            CHECK(held_call_times(bare).front() >= 0.0064);
            CHECK(held_call_times(bare).front() < 0.0064 + 0.0016);
        }
    }
    SECTION("the host clock outlasts the events on a warm-up's 3 calls, then on a stop test's 16") {
        const std::vector<clock_reading> three(3, {0.154, 0.172, 0.004});
        CHECK_FALSE(may_hold_back(three));
        CHECK_FALSE(warm_up_stops_holding_back(three));  // the first stop test decides
        CHECK(warm_up_stops_holding_back(std::vector<clock_reading>(kReadingsToChooseClock, three[0])));
        CHECK_FALSE(warm_up_stops_holding_back(std::vector<clock_reading>(100, {0.154, 0.155, 0.004})));
    }
    SECTION("another thread of the runner works during the calls: a host function solve queued") {
        std::vector<clock_reading> readings(100, {0.0062, 0.0063, 0.0070, 0.0075});
        for (auto& r : readings) r.other_threads_ms = 0.0015;  // the driver's own, allowed for
        CHECK(may_hold_back(readings));
        for (auto& r : readings) r.other_threads_ms = 0.0184;
        CHECK_FALSE(may_hold_back(readings));
        CHECK(why_not_held_back(readings) ==
              "the runner's other threads used a median of 18.4 us of CPU per call over 100 calls: host work "
              "beside solve (a host function?)");
        // The driver's threads now and then, in a few calls: the median is what counts.
        for (int i = 0; i < 100; ++i) readings[i].other_threads_ms = i % 10 == 0 ? 0.020 : 0;
        CHECK(may_hold_back(readings));
    }
    SECTION("each rule broken in a different minority of calls: judged per call, by both at once") {
        std::vector<clock_reading> readings(100, {0.0062, 0.0063, 0.0070, 0.0075});
        for (int i = 0; i < 30; ++i) readings[i].other_threads_ms = 0.030;  // a host function answers
        for (int i = 30; i < 45; ++i) readings[i].solve_ms = 0.030;         // solve computes on the host: charged
        CHECK(may_hold_back(readings));                              // 30 calls: the median call is an honest one
        for (int i = 45; i < 66; ++i) readings[i].host_ms = 0.0110;  // a private kernel past the stop event
        CHECK(median_of(readings, &clock_reading::other_threads_ms) == 0);
        CHECK_FALSE(work_hid_from_events(readings, true));
        CHECK_FALSE(may_hold_back(readings));
        CHECK(why_not_held_back(readings) ==
              "51 of 100 calls broke a rule of held-back calls, though no rule's median did: 30 by other threads' "
              "CPU, 21 by the host clock");
    }
    SECTION("held back while fewer than half the calls break a rule: 49 of 100, not 50") {
        std::vector<clock_reading> readings(100, {0.0062, 0.0063, 0.0070, 0.0075});
        for (int i = 0; i < 49; ++i) readings[i].other_threads_ms = 0.030;
        CHECK(may_hold_back(readings));
        readings[49].other_threads_ms = 0.030;
        CHECK_FALSE(may_hold_back(readings));
    }
    SECTION("a long kernel's calls spread around its median: each call's host clock is held to its own events") {
        std::vector<clock_reading> readings;
        for (int i = 0; i < 100; ++i) {
            const double event_ms = 0.270 + 0.060 * (i % 10) / 9;  // 270-330 us
            readings.push_back({event_ms, event_ms * 1.004, 0.010, 0.008});
            if (i % 10 == 3) readings.back().other_threads_ms = 0.020;  // the driver's threads now and then
        }
        CHECK(may_hold_back(readings));
    }
    SECTION("an other-threads reading that could not be taken, in a single call, times the run unblocked") {
        std::vector<clock_reading> readings(100, {0.0062, 0.0063, 0.0070, 0.0075});
        readings[7].other_threads_ms = std::numeric_limits<double>::infinity();
        CHECK_FALSE(may_hold_back(readings));
        CHECK(why_not_held_back(readings) == "the runner's other threads could not be read in 1 of 100 calls");
    }
    SECTION("the host clock outlasts the events") {
        const std::vector<clock_reading> readings(16, {0.132, 0.150, 0.004});
        CHECK(why_not_held_back(readings) ==
              "the host clock's median, 150.0 us, exceeded the events' 132.0 us over 16 calls");
    }
}
