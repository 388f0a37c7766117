// The bench table: figures per solution and size, and a legend for the ways a time was taken.
#include "bench/report.hpp"
#include "bench/timing.hpp"

#include "spec/problem_spec.hpp"

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
    if (!blocking) f.unblocked_because = "call 2 waited on the device while held back";
    bench_report report;
    report.problem = "reduction";
    report.device = device_message{"NVIDIA H100 80GB HBM3", "GPU-0", "sm_90", 132, 50 << 20, 80ll << 30};
    report.peak_gbps = 3070;
    report.entries.push_back({"solutions/reduction/x.cu", false, false, false, {}, {f}});
    report.entries.back().compile.ok = true;
    return report;
}

}  // namespace

TEST_CASE("the bench table marks and explains times not taken from held-back events", "[bench]") {
    SECTION("held back, on the events: no marks, no legend") {
        const std::string text = bench_markdown(one_entry(false, true));
        CHECK(text.find("| x.cu | N = 100M | 131.6 | 3040 | 759.9 | 99.0 |") != std::string::npos);
        CHECK(text.find("(unblocked)") == std::string::npos);
        CHECK(text.find("(host clock)") == std::string::npos);
    }
    SECTION("unblocked and on the host clock: both marks, both explained") {
        const std::string text = bench_markdown(one_entry(true, false));
        CHECK(text.find("| 131.6 (host clock) (unblocked) |") != std::string::npos);
        CHECK(text.find("\n(unblocked): calls were not held back") != std::string::npos);
        CHECK(text.find("\n  x.cu at N = 100M: call 2 waited on the device while held back\n") != std::string::npos);
        CHECK(text.find("\n(host clock): work ran outside") != std::string::npos);
    }
    SECTION("both flags reach the JSON") {
        const nlohmann::json json = bench_json(one_entry(true, false));
        const auto& figure = json.at("entries").at(0).at("figures").at(0);
        CHECK(figure.at("host_clock") == true);
        CHECK(figure.at("blocking") == false);
        CHECK(figure.at("unblocked_because") == "call 2 waited on the device while held back");
    }
    SECTION("held back and charged for solve's host time: marked, with the charge per run") {
        bench_report report = one_entry(false, true);
        bench_figures& f = report.entries.back().figures.back();
        f.solve_charge_us = 4.3;
        f.solve_median_us = 17.5;
        const std::string text = bench_markdown(report);
        CHECK(text.find("| 131.6 (host charged) |") != std::string::npos);
        CHECK(text.find("\n(host charged): solve spent longer on the host than its kernels and one launch") !=
              std::string::npos);
        CHECK(text.find("\n  x.cu at N = 100M: 4.3 us of solve's 17.5 us on the host\n") != std::string::npos);
        CHECK(text.find("(unblocked)") == std::string::npos);
        CHECK(bench_json(report).at("entries").at(0).at("figures").at(0).at("solve_charge_us") == 4.3);
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
    const bench_figures f = figures_of(spec, report, 0, 0);
    CHECK(f.median_us == Approx(100));
    CHECK(f.gbps == Approx(2000.00004));
    CHECK(f.gflops == Approx(500));
    const nlohmann::json json = f;
    CHECK(json.at("gflops") == Approx(500));
    SECTION("a problem without metrics.flops leaves the column blank") {
        problem_spec no_flops = spec;
        no_flops.flops_expression = "0";
        bench_report table = one_entry(false, true);
        table.entries.back().figures = {figures_of(no_flops, report, 0, 0)};
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

namespace {

// A report with the baseline, the PyTorch one-liner and one solution, at two sizes (the reference
// points' figures in the other order, as figures kept by an earlier run may be).
bench_report three_entries() {
    const auto entry = [](const char* source, std::vector<std::pair<const char*, double>> medians) {
        bench_entry e;
        e.source = source;
        e.compile.ok = true;
        for (const auto& [test, median] : medians) {
            bench_figures f;
            f.test = test;
            f.result = verdict::accepted;
            f.median_us = median;
            e.figures.push_back(f);
        }
        return e;
    };
    bench_report report;
    report.problem = "reduction";
    report.entries.push_back(entry("cub_baseline.cu", {{"N = 100M", 133}, {"N = 50M", 70}}));
    report.entries.back().baseline = true;
    report.entries.push_back(entry("pytorch.py", {{"N = 100M", 145}, {"N = 50M", 80}}));
    report.entries.back().torch = true;
    report.entries.back().cached = true;
    report.entries.push_back(entry("mine.cu", {{"N = 50M", 40}, {"N = 100M", 131}}));
    return report;
}

}  // namespace

TEST_CASE("x torch is the one-liner's median over each entry's, size by size, beside x baseline", "[bench][torch]") {
    bench_report report = three_entries();
    add_speedups(report);
    const bench_figures& small = report.entries.back().figures.at(0);
    CHECK(small.speedup == Approx(70.0 / 40));
    CHECK(small.speedup_torch == Approx(80.0 / 40));
    CHECK(report.entries.back().figures.at(1).speedup_torch == Approx(145.0 / 131));
    CHECK(report.entries.at(1).figures.at(0).speedup_torch == Approx(1));
    const std::string text = bench_markdown(report);
    CHECK(text.find(
              "| solution | size | median µs | GB/s | GFLOP/s | % of peak | × baseline | × torch | samples | ±rse |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n") != std::string::npos);
    CHECK(text.find("| pytorch.py (torch, kept) | N = 100M | 145.0 |") != std::string::npos);
    CHECK(text.find("| mine.cu | N = 50M | 40.0 | 0 |  |  | 1.75 | 2.00 | 0 |") != std::string::npos);
    CHECK(text.find("\n(torch, kept): the PyTorch one-liner's figures") != std::string::npos);
    CHECK(text.find("(baseline, kept)") == std::string::npos);
    SECTION("without the one-liner there is no such column") {
        report.entries.erase(report.entries.begin() + 1);
        for (auto& entry : report.entries)
            for (auto& f : entry.figures) f.speedup_torch = 0;
        add_speedups(report);
        const std::string plain = bench_markdown(report);
        CHECK(plain.find("× torch") == std::string::npos);
        CHECK(plain.find("| mine.cu | N = 50M | 40.0 | 0 |  |  | 1.75 | 0 |") != std::string::npos);
    }
}

TEST_CASE("x torch reaches the JSON, and figures kept before it read back with none", "[bench][torch]") {
    bench_report report = three_entries();
    add_speedups(report);
    const nlohmann::json json = bench_json(report);
    CHECK(json.at("entries").at(1).at("torch") == true);
    CHECK(json.at("entries").at(2).at("torch") == false);
    const nlohmann::json figure = json.at("entries").at(2).at("figures").at(0);
    CHECK(figure.at("speedup_torch") == Approx(2));
    const auto back = figure.get<bench_figures>();
    CHECK(back.speedup_torch == Approx(2));
    CHECK(back.speedup == Approx(1.75));
    nlohmann::json earlier = figure;
    earlier.erase("speedup_torch");
    CHECK(earlier.get<bench_figures>().speedup_torch == 0);
}

TEST_CASE("bench says why a file has no time: its compile error's line, a run's verdict and message", "[bench]") {
    bench_report report = one_entry(false, true);
    bench_figures& f = report.entries.back().figures.back();
    f.result = verdict::wrong_answer;
    f.message = "'output'[0] = 7 where 8 was expected\n(1 of 1 elements wrong)";
    bench_entry broken{"solutions/reduction/broken.cu", false, false, false, {}, {}};
    broken.compile.diagnostics =
        "broken.cu(3): warning #177-D: unused\nbroken.cu(9): error: identifier \"n\" is "
        "undefined\n1 error detected\n";
    report.entries.push_back(broken);
    const std::string text = bench_markdown(report);
    INFO(text);
    CHECK(text.find("| x.cu | N = 100M | wrong_answer |") != std::string::npos);
    CHECK(text.find("\nNot timed, and why:\n"
                    "  x.cu at N = 100M: wrong_answer: 'output'[0] = 7 where 8 was expected\n"
                    "  broken.cu: compile_error: broken.cu(9): error: identifier \"n\" is undefined\n") !=
          std::string::npos);
    const nlohmann::json json = bench_json(report);
    CHECK(json.at("entries").at(1).at("compile_error") == "broken.cu(9): error: identifier \"n\" is undefined");
    CHECK(json.at("entries").at(0).at("compile_error") == "");
}

TEST_CASE("without a measured peak (the host backend) no peak and no percentage of it are shown", "[bench]") {
    bench_report report = one_entry(false, true);
    report.peak_gbps = 0;
    report.entries.back().figures.back().percent_of_peak = 0;
    const std::string text = bench_markdown(report);
    CHECK(text.rfind("### reduction on NVIDIA H100 80GB HBM3 (no peak measured)\n", 0) == 0);
    CHECK(text.find("| x.cu | N = 100M | 131.6 | 3040 | 759.9 |  |") != std::string::npos);
    const nlohmann::json json = bench_json(report);
    const auto& figure = json.at("entries").at(0).at("figures").at(0);
    CHECK(figure.at("percent_of_peak").is_null());
    CHECK(figure.get<bench_figures>().percent_of_peak == 0);  // kept figures read back
}
