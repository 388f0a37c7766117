// The bench table: figures per solution and size, and a legend for the ways a time was taken.
#include "benchmarking.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

bench_report one_entry(bool host_clock, bool blocking) {
    bench_figures f;
    f.test = "N = 100M";
    f.result = verdict::accepted;
    f.median_us = 131.6;
    f.gbps = 3040;
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
        CHECK(text.find("| x.cu | N = 100M | 131.6 | 3040 | 99.0 |") != std::string::npos);
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
