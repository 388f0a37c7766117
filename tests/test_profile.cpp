// `profile`'s reading of ncu's raw page (a real report from an H100), its analysis of the numbers,
// and the suggestions: each fires on the numbers that should set it off, and not otherwise.
#include "profile/analysis.hpp"
#include "profile/kernels.hpp"
#include "profile/report.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace gpujudge;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream file(std::string(GPUJUDGE_TEST_FIXTURES) + "/ncu/" + name);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A kernel that streams `bytes` in `us` over many full waves, with nothing to say about it.
kernel_profile streaming(double bytes, double us) {
    kernel_profile k;
    k.name = "stream(const float *, float *, int)";
    k.grid = "(1056, 1, 1)";
    k.block = "(256, 1, 1)";
    k.duration_us = us;
    k.grid_size = 1056;
    k.block_size = 256;
    k.registers_per_thread = 32;
    k.shared_bytes_per_block = 0;
    k.dram_read_bytes = bytes;
    k.dram_write_bytes = 0;
    k.achieved_occupancy_pct = 95;
    k.theoretical_occupancy_pct = 100;
    k.block_limits = {{"registers", 8}, {"shared_mem", 32}, {"warps", 8}, {"blocks", 32}, {"barriers", 32}};
    k.waves_per_sm = 1;
    k.sm_count = 132;
    k.stalls = {{"long_scoreboard", 20}, {"wait", 2}, {"barrier", 1}};
    return k;
}

constexpr double kPeak = 3000;     // GB/s
constexpr double kBytes = 400e6;   // metrics.bytes
constexpr double kIdeal = 133.33;  // µs: kBytes at kPeak

}  // namespace

TEST_CASE("ncu's raw page is read per kernel, in base units, from a real H100 report", "[profile]") {
    const auto kernels = parse_ncu_raw_csv(fixture("raw.csv"));
    REQUIRE(kernels.size() == 2);
    const kernel_profile& k = kernels[0];
    CHECK(k.id == 0);
    CHECK(k.name == "reduce_good(const float *, float *, int)");
    CHECK(k.short_name() == "reduce_good");
    CHECK(k.grid == "(390625, 1, 1)");
    CHECK(k.block == "(256, 1, 1)");
    CHECK(k.duration_us == Approx(739.456));
    CHECK(k.grid_size == 390625);  // "390,625": a thousands separator
    CHECK(k.block_size == 256);
    CHECK(k.registers_per_thread == 16);
    CHECK(k.shared_bytes_per_block == Approx(1024));   // 1.024 Kbyte static + 0 byte dynamic
    CHECK(k.dram_read_bytes == Approx(400.061952e6));  // Mbyte
    CHECK(k.dram_write_bytes == Approx(2.51264e6));
    CHECK(k.l1_hit_pct == 0);
    CHECK(k.l2_hit_pct == Approx(3.735913));
    CHECK(k.achieved_occupancy_pct == Approx(91.057218));
    CHECK(k.theoretical_occupancy_pct == 100);
    CHECK(k.block_limits == std::map<std::string, double>{
                                {"barriers", 32}, {"blocks", 32}, {"registers", 16}, {"shared_mem", 16}, {"warps", 8}});
    CHECK(k.waves_per_sm == Approx(369.91));
    CHECK(k.sm_count == 132);
    REQUIRE(k.stalls.size() == 18);  // every reason ncu has but "selected", which is issuing
    CHECK(k.stalls[0].name == "long_scoreboard");
    CHECK(k.stalls[0].ratio == Approx(18.625188));
    CHECK(k.stalls[1].name == "barrier");
    CHECK(k.stalls[2].name == "short_scoreboard");
    CHECK(kernels[1].id == 1);
    CHECK(kernels[1].duration_us == Approx(364.48));
    CHECK(kernels[1].grid_size == 195313);
    CHECK(kernels[1].dram_read_bytes == Approx(200.004864e6));
}

TEST_CASE("ncu's values scale by their unit, whichever ncu printed", "[profile]") {
    CHECK(ncu_value("1,234.5", "byte") == Approx(1234.5));
    CHECK(ncu_value("2.048000", "Kbyte/block") == Approx(2048));
    CHECK(ncu_value("7.351001", "Gbyte") == Approx(7.351001e9));
    CHECK(ncu_value("739456", "nsecond") == Approx(739.456));
    CHECK(ncu_value("739.456", "us") == Approx(739.456));
    CHECK(ncu_value("1.5", "msecond") == Approx(1500));
    CHECK(ncu_value("91.06", "%") == Approx(91.06));
    CHECK(std::isnan(ncu_value("no data", "%")));
    CHECK(std::isnan(ncu_value("n/a", "")));
    CHECK(std::isnan(ncu_value("(256, 1, 1)", "")));
}

TEST_CASE("the raw page in base units, after ncu's own notes, with values ncu has not", "[profile]") {
    const std::string text =
        "==PROF== a note before the table\n"
        "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
        "\"launch__grid_size\",\"lts__t_sector_hit_rate.pct\"\n"
        "\"\",\"\",\"\",\"\",\"nsecond\",\"byte\",\"\",\"%\"\n"
        "\"0\",\"void reduce<256>(const float *, float *, int)\",\"(66, 1, 1)\",\"(256, 1, 1)\",\"12,500\","
        "\"4,000,000\",\"66\",\"n/a\"\n";
    const auto kernels = parse_ncu_raw_csv(text);
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].short_name() == "reduce<256>");
    CHECK(kernels[0].duration_us == Approx(12.5));
    CHECK(kernels[0].dram_read_bytes == Approx(4e6));
    CHECK(std::isnan(kernels[0].l2_hit_pct));
    CHECK(std::isnan(kernels[0].dram_write_bytes));  // not collected
    CHECK(kernels[0].stalls.empty());
    CHECK(format_bytes(kernels[0].dram_write_bytes) == "n/a");
    CHECK(kernels[0].dram_bytes() == Approx(4e6));  // what was collected
    CHECK_THROWS_WITH(parse_ncu_raw_csv("==ERROR== something went wrong\n"),
                      "ncu printed no raw page (no header row starting with \"ID\")");
    CHECK_THROWS_WITH(parse_ncu_raw_csv("\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"0\",\"k()\"\n"),
                      "ncu's raw page has no column 'gpu__time_duration.sum'");
}

TEST_CASE("the roofline of the H100 report: where 1150 µs go against 400 MB at 3000 GB/s", "[profile]") {
    const auto kernels = parse_ncu_raw_csv(fixture("raw.csv"));
    const roofline line = make_roofline(kernels, 400000004, 1150, kPeak);
    CHECK(line.ideal_us == Approx(133.3333).epsilon(1e-4));
    CHECK(line.kernels == 2);
    CHECK(line.kernel_us == Approx(1103.936));
    CHECK(line.dram_bytes == Approx(604.995072e6));
    CHECK(line.extra_bytes == Approx(204.995068e6));
    CHECK(line.extra_us == Approx(68.3317).epsilon(1e-4));
    CHECK(line.outside_us == Approx(46.064));
    // 369.91 waves leave 0.09 of the 370th empty; 184.96 leave 0.04 of the 185th.
    CHECK(line.idle_us == Approx(739.456 * 0.09 / 370 + 364.48 * 0.04 / 185).epsilon(1e-3));
    CHECK(line.below_us == Approx(1150 - 133.3333 - 68.3317 - 46.064 - line.idle_us).epsilon(1e-4));
    CHECK(line.percent_of_peak() == Approx(11.594).epsilon(1e-3));
    CHECK(describe_roofline(line, false) ==
          "400.0 MB (metrics.bytes) take 133.3 µs at the measured ceiling of 3000 GB/s; the call takes 1150.0 µs "
          "(11.6 %). Of the 1016.7 µs gap: extra DRAM traffic 205.0 MB (68.3 µs), outside the kernels 46.1 µs, idle "
          "SMs and tails 0.3 µs, kernels below the ceiling 902.0 µs.");
}

TEST_CASE("the H100 report's numbers: what each kernel reaches, and why its warps wait", "[profile]") {
    const auto kernels = parse_ncu_raw_csv(fixture("raw.csv"));
    const kernel_profile& k = kernels[0];
    CHECK(dram_gbps(k) == Approx(544.42).epsilon(1e-3));
    CHECK(percent_of_ceiling(k, kPeak) == Approx(18.147).epsilon(1e-3));
    CHECK(blocks_per_sm(k) == 8);
    CHECK(occupancy_limiter(k).empty());  // 100 % theoretical: nothing limits it
    CHECK(stall_share(k, k.stalls[0]) == Approx(43.354).epsilon(1e-3));
    CHECK(stall_meaning("long_scoreboard") ==
          "waiting for data from global or local memory (a load that has not returned)");
    CHECK(stall_meaning("barrier") == "waiting at __syncthreads() for the other warps of its block");
    CHECK(stall_meaning("future_reason") == "stalled for what ncu calls 'future_reason'");
    const auto found = suggest(kernels, make_roofline(kernels, 400000004, 1150, kPeak));
    REQUIRE(found.size() == 2);
    CHECK(found[0].text ==
          "reduce_good reaches 18 % of the ceiling and its warps wait most for global memory (long_scoreboard, 43 % "
          "of stalls): keep more bytes in flight per thread, with 16-byte loads (float4, int4) and several "
          "independent loads before the first use.");
    CHECK(found[1].text ==
          "DRAM traffic is 1.51x metrics.bytes (605.0 MB moved where 400.0 MB must be), 68.3 µs at the ceiling: read "
          "each input byte once, in one pass, and write each output once. By kernel: reduce_good 402.6 MB (L2 hit "
          "rate 3.7 %), reduce_good 202.4 MB (L2 hit rate 5.0 %).");
    CHECK(found[0].at_stake_us > found[1].at_stake_us);
}

TEST_CASE("a call near the ceiling gets no suggestion", "[profile]") {
    const std::vector<kernel_profile> kernels{streaming(kBytes, 130)};
    const roofline line = make_roofline(kernels, kBytes, 133, 3100);
    CHECK(line.outside_us == Approx(3));
    CHECK(suggest(kernels, line).empty());
}

TEST_CASE("time outside the kernels sets off a suggestion worded for one kernel or several", "[profile]") {
    std::vector<kernel_profile> kernels{streaming(kBytes, kIdeal)};
    auto found = suggest(kernels, make_roofline(kernels, kBytes, kIdeal + 30, kPeak));
    REQUIRE(found.size() == 1);
    CHECK(found[0].text ==
          "30.0 µs (18 % of the call) pass outside the kernel: solve does other work around it (cudaMalloc, "
          "cudaMemset, cudaMemcpy, a synchronise); allocate nothing per call and zero outputs inside the kernel.");
    CHECK(found[0].at_stake_us == Approx(30));
    kernels = {streaming(kBytes / 2, kIdeal / 2), streaming(kBytes / 2, kIdeal / 2)};
    found = suggest(kernels, make_roofline(kernels, kBytes, kIdeal + 30, kPeak));
    REQUIRE(found.size() == 1);
    CHECK(contains(found[0].text, "2 kernels leave 30.0 µs (18 % of the call) between and around them"));
    // Under 5 % of the call: not worth a word.
    CHECK(suggest(kernels, make_roofline(kernels, kBytes, kIdeal + 5, kPeak)).empty());
}

TEST_CASE("idle SMs cost nothing in a kernel that streams at the ceiling", "[profile]") {
    // vectorized_float4 on the H100: half a wave, half the SMs empty, yet 99 % of the ceiling.
    kernel_profile k = streaming(kBytes, kIdeal * 1.01);
    k.grid_size = 264;
    k.waves_per_sm = 0.5;
    const std::vector<kernel_profile> kernels{k};
    const roofline line = make_roofline(kernels, kBytes, kIdeal * 1.01, kPeak);
    CHECK(idle_fraction(k) == Approx(0.5));
    CHECK(line.idle_us == Approx(kIdeal * 0.01).margin(0.01));  // capped by the time above what its bytes take
    CHECK(line.idle_us <= line.gap_us() + 1e-9);
    CHECK(suggest(kernels, line).empty());
}

TEST_CASE("idle SMs set off a suggestion with the grid, the SMs and the blocks each holds", "[profile]") {
    kernel_profile k = streaming(kBytes, 400);
    k.grid = "(66, 1, 1)";
    k.grid_size = 66;
    k.waves_per_sm = 66.0 / (132 * 8);
    k.dram_read_bytes = kBytes;
    const std::vector<kernel_profile> kernels{k};
    const roofline line = make_roofline(kernels, kBytes, 400, kPeak);
    CHECK(idle_fraction(k) == Approx(1 - 66.0 / 1056));
    const auto found = suggest(kernels, line);
    REQUIRE(!found.empty());
    CHECK(found[0].text ==
          "stream launches 66 blocks where 132 SMs hold 8 each (0.062 waves): 94 % of the GPU idles for its 400.0 "
          "µs; launch at least 1056 blocks, with a grid-stride loop for the work per thread.");
    // A small last kernel after others: fold it into the one before.
    kernel_profile last = streaming(0, 60);
    last.name = "finish(const float *, float *)";
    last.grid_size = 1;
    last.waves_per_sm = 1.0 / 1056;
    const std::vector<kernel_profile> two{streaming(kBytes, kIdeal), last};
    const auto folded = suggest(two, make_roofline(two, kBytes, kIdeal + 60, kPeak));
    REQUIRE(folded.size() == 1);
    CHECK(contains(folded[0].text, "finish launches 1 block where 132 SMs hold 8 each"));
    CHECK(contains(folded[0].text, "do its work at the end of the kernel before it instead"));
}

TEST_CASE("a kernel below the ceiling: the suggestion follows its occupancy limit or its main stall", "[profile]") {
    SECTION("limited by registers") {
        kernel_profile k = streaming(kBytes, 300);
        k.registers_per_thread = 80;
        k.theoretical_occupancy_pct = 37.5;
        k.block_limits["registers"] = 3;
        CHECK(occupancy_limiter(k) == "registers (80 per thread)");
        const std::vector<kernel_profile> kernels{k};
        const auto found = suggest(kernels, make_roofline(kernels, kBytes, 300, kPeak));
        REQUIRE(found.size() == 1);
        CHECK(found[0].text ==
              "stream reaches 44 % of the ceiling with a theoretical occupancy of 38 %, limited by registers (80 per "
              "thread) to 3 blocks per SM: fewer warps in flight hide less memory latency; cap registers with "
              "__launch_bounds__, or use less shared memory per block.");
        CHECK(found[0].at_stake_us == Approx(300 - kIdeal).epsilon(1e-3));
    }
    SECTION("waiting at barriers") {
        kernel_profile k = streaming(kBytes, 300);
        k.stalls = {{"barrier", 30}, {"long_scoreboard", 10}};
        const std::vector<kernel_profile> kernels{k};
        const auto found = suggest(kernels, make_roofline(kernels, kBytes, 300, kPeak));
        REQUIRE(found.size() == 1);
        CHECK(found[0].text ==
              "stream reaches 44 % of the ceiling and its warps wait most at __syncthreads (barrier, 75 % of "
              "stalls): reduce within each warp with __shfl_down_sync and keep one barrier per block.");
    }
    SECTION("another stall: its plain meaning") {
        kernel_profile k = streaming(kBytes, 300);
        k.stalls = {{"lg_throttle", 30}};
        const std::vector<kernel_profile> kernels{k};
        const auto found = suggest(kernels, make_roofline(kernels, kBytes, 300, kPeak));
        REQUIRE(found.size() == 1);
        CHECK(found[0].text ==
              "stream reaches 44 % of the ceiling; its warps stall most on lg_throttle (100 % of stalls): the queue "
              "for global and local memory instructions is full: many small loads or stores.");
    }
    SECTION("at 80 % of the ceiling and more, no word on it") {
        const std::vector<kernel_profile> kernels{streaming(kBytes, kIdeal / 0.85)};
        CHECK(suggest(kernels, make_roofline(kernels, kBytes, kIdeal / 0.85, kPeak)).empty());
    }
}

TEST_CASE("at most three suggestions, the most time at stake first", "[profile]") {
    kernel_profile wide = streaming(2 * kBytes, 500);  // twice the traffic, at 53 % of the ceiling
    kernel_profile last = streaming(0, 100);
    last.name = "finish(float *)";
    last.grid_size = 1;
    last.waves_per_sm = 1.0 / 1056;
    const std::vector<kernel_profile> kernels{wide, last};
    const roofline line = make_roofline(kernels, kBytes, 700, kPeak);
    const auto found = suggest(kernels, line);
    REQUIRE(found.size() == 3);  // extra traffic, outside the kernels, idle SMs, below the ceiling: four
    for (std::size_t i = 1; i < found.size(); ++i) CHECK(found[i - 1].at_stake_us >= found[i].at_stake_us);
}

TEST_CASE("without a measured ceiling the roofline says so and suggests only what needs none", "[profile]") {
    const std::vector<kernel_profile> kernels{streaming(2 * kBytes, 130)};
    const roofline line = make_roofline(kernels, kBytes, 170, 0);
    CHECK(line.below_us == 0);  // below what? no ceiling
    CHECK(describe_roofline(line, true) ==
          "no measured ceiling for this device: the call takes 170.0 µs, its kernels 130.0 µs, outside them 40.0 µs, "
          "idle SMs and tails 0.0 µs; DRAM traffic 800.0 MB for 400.0 MB of metrics.bytes. ncu profiled the first 32 "
          "kernels only: the others' time counts as outside the kernels.");
    const auto found = suggest(kernels, line);
    REQUIRE(found.size() == 1);
    CHECK(contains(found[0].text, "40.0 µs (24 % of the call) pass outside the kernel"));
}
