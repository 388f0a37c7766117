// The bench table: figures per solution and size, and a legend for the ways a time was taken.
#include "bench/report.hpp"
#include "bench/timing.hpp"

#include "problem_spec.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

bench_report one_entry(bool host_clock, bool blocking) {
    bench_figures f;
    f.test = "N = 100M";
    f.result = verdict::accepted;
    f.median_us = 131.6;
    f.gbps = 3040;
    f.gflops = 759.9;
    f.percent_of_peak = 99.0;
    f.samples = 900;
    f.host_clock = host_clock;
    f.blocking = blocking;
    bench_report report;
    report.problem = "reduction";
    report.device = device_message{"NVIDIA H100 80GB HBM3", "GPU-0", "sm_90", 132, 50 << 20, 80ll << 30};
    report.peak_gbps = 3070;
    report.entries.push_back({"solutions/reduction/x.cu", false, false, {}, {f}});
    report.entries.back().compile.ok = true;
    return report;
}

}  // namespace

TEST_CASE("the bench table marks and explains times not taken from held-back events", "[bench]") {
    SECTION("held back, on the events: no marks, no legend") {
        const std::string text = bench_markdown(one_entry(false, true));
        CHECK(text.find("| x.cu | N = 100M | 131.6 | 3040 | 759.9 | 99.0 |") != std::string::npos);
        CHECK(text.find("(synchronises)") == std::string::npos);
        CHECK(text.find("(host clock)") == std::string::npos);
    }
    SECTION("unblocked and on the host clock: both marks, both explained") {
        const std::string text = bench_markdown(one_entry(true, false));
        CHECK(text.find("| 131.6 (host clock) (synchronises) |") != std::string::npos);
        CHECK(text.find("\n(synchronises): solve synchronised") != std::string::npos);
        CHECK(text.find("\n(host clock): work ran outside") != std::string::npos);
    }
    SECTION("both flags reach the JSON") {
        const nlohmann::json json = bench_json(one_entry(true, false));
        const auto& figure = json.at("entries").at(0).at("figures").at(0);
        CHECK(figure.at("host_clock") == true);
        CHECK(figure.at("blocking") == false);
    }
}

TEST_CASE("GB/s and GFLOP/s come from the problem's metrics at the test's sizes", "[bench]") {
    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");  // bytes 4 * N + 4, flops N
    test_report report;
    for (std::size_t i = 0; i < spec.tests.size(); ++i)
        if (spec.tests[i].name == "N = 50M") report.index = static_cast<int>(i);
    REQUIRE(spec.tests.at(static_cast<std::size_t>(report.index)).name == "N = 50M");
    report.name = "N = 50M";
    report.result = verdict::accepted;
    report.timing = timing_summary{};
    report.timing->stats.median = 0.1;  // ms
    const bench_figures f = figures_of(spec, report, 0);
    CHECK(f.median_us == Approx(100));
    CHECK(f.gbps == Approx(2000.00004));
    CHECK(f.gflops == Approx(500));
    const nlohmann::json json = f;
    CHECK(json.at("gflops") == Approx(500));
    SECTION("a problem without metrics.flops leaves the column blank") {
        problem_spec no_flops = spec;
        no_flops.flops_expression = "0";
        bench_report table = one_entry(false, true);
        table.entries.back().figures = {figures_of(no_flops, report, 0)};
        CHECK(table.entries.back().figures.back().gflops == 0);
        CHECK(bench_markdown(table).find("| x.cu | N = 50M | 100.0 | 2000 |  | 0.0 |") != std::string::npos);
    }
}

namespace {

gpujudge::bench_entry timed_entry(double median_us, double cycle_us) {
    gpujudge::bench_entry entry;
    gpujudge::bench_figures f;
    f.test = "N = 100M";
    f.result = gpujudge::verdict::accepted;
    f.median_us = median_us;
    f.cycle_us = cycle_us;
    entry.figures.push_back(f);
    return entry;
}

}  // namespace

TEST_CASE("the judge's clock refuses a median that leaves most of the cycle untimed, not harness noise",
          "[bench][clock]") {
    const gpujudge::bench_entry baseline = timed_entry(150, 2250);  // a harness share of 2100 µs
    // An honest solution whose harness work ran 36 % long (measured on the H100): accepted.
    gpujudge::bench_entry noisy = timed_entry(154, 2862 + 154);
    gpujudge::wall_clock_check(baseline, noisy);
    CHECK(noisy.figures.front().result == gpujudge::verdict::accepted);
    // 4 ms of work outside a 100 µs median: refused, with the figures in the message.
    gpujudge::bench_entry hidden = timed_entry(100, 2100 + 4000 + 100);
    gpujudge::wall_clock_check(baseline, hidden);
    CHECK(hidden.figures.front().result == gpujudge::verdict::impossible_time);
    CHECK(hidden.figures.front().message.find("6200.0 µs per timed call") != std::string::npos);
}
