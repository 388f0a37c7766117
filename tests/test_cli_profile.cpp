// `gpujudge profile` as a user runs it, on a machine without a GPU or Nsight Compute: a missing ncu,
// counters ncu may not read, no GPU and a compile error each end with their exit code; the report's
// shape (text, --json, --compare) comes from the host backend behind a stand-in ncu
// (tests/fixtures/ncu/bin/ncu) that imports a real report's numbers.
#include "base/exit_codes.hpp"
#include "cli_test_support.hpp"
#include "process/child_process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

using namespace gpujudge;

namespace {

const std::string kSource = GPUJUDGE_SOURCE_DIR;
const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kTinySum = kFixtures + "/problems/tiny_sum";
const std::string kHostSolutions = kFixtures + "/host_solutions/";
const std::string kWarpShuffle = kSource + "/solutions/reduction/warp_shuffle.cu";

// PATH with the stand-in ncu first.
std::string path_with_fake_ncu() {
    const char* path = std::getenv("PATH");
    return "PATH=" + kFixtures + "/ncu/bin:" + (path ? path : "/usr/bin:/bin");
}

// In the source tree's home, with the reports in the tests' data folder.
command_result profile_env(std::vector<std::string> env, const std::vector<std::string>& args) {
    env.insert(env.begin(), "GPUJUDGE_DATA_DIR=" GPUJUDGE_TEST_CACHE);
    env.insert(env.begin(), "GPUJUDGE_SANDBOX_ENV=FAKE_NCU");  // the stand-in runs in the sandbox
    std::vector<std::string> argv{"--color", "never", "--home", kSource};
    argv.insert(argv.end(), args.begin(), args.end());
    return gpujudge::gpujudge_env(env, argv);
}

command_result with_fake_ncu(const std::vector<std::string>& args) {
    return profile_env({path_with_fake_ncu()}, args);
}

// stdout alone: the JSON object, without what gpujudge says on stderr.
nlohmann::json json_of(const command_result& result) {
    return nlohmann::json::parse(result.output.substr(result.output.find('{')));
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("profile without ncu says where it looked and where to get it, with exit code 13", "[cli][profile]") {
    if (std::filesystem::exists("/usr/local/cuda/bin/ncu")) {
        WARN("skipped: /usr/local/cuda/bin has ncu on this machine");
        return;
    }
    const auto result =
        profile_env({"PATH=/usr/bin:/bin", "CUDA_HOME=/nonexistent"}, {"profile", "reduction", kWarpShuffle});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output ==
          "gpujudge: ncu not found on PATH, in /nonexistent/bin or in /usr/local/cuda/bin: `profile` runs the "
          "submission under it; install Nsight Compute, which comes with the CUDA Toolkit "
          "(https://developer.nvidia.com/nsight-compute), then add its bin folder to PATH or set CUDA_HOME to the "
          "folder it is installed in\n");
}

TEST_CASE("profile when ncu may not read the counters: ERR_NVGPUCTRPERM is exit code 14", "[cli][profile]") {
    const auto result = profile_env({path_with_fake_ncu(), "FAKE_NCU=denied"},
                                    {"--backend", "host", "profile", kTinySum, kHostSolutions + "correct.cpp"});
    CHECK(result.exit.code == exit_counters_denied);
    CHECK(result.output ==
          "gpujudge: ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run gpujudge as root, or "
          "allow every user to profile with the NVIDIA driver's option NVreg_RestrictProfilingToAdminUsers=0 "
          "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)\n");
}

TEST_CASE("profile without a GPU stops at no_device, with the compile result", "[cli][profile]") {
    const auto result = with_fake_ncu({"profile", "--json", "reduction", kWarpShuffle});
    const auto json = json_of(result);
    CHECK(json.at("judgement").at("compile").at("ok") == true);
    if (json.at("verdict") == "no_device") {
        CHECK(result.exit.code == exit_no_device);
        CHECK(json.at("exit_code") == exit_no_device);
        CHECK(!json.contains("kernels"));
    } else {  // on a GPU, the stand-in ncu profiles nothing and imports the fixture's two kernels
        CHECK(result.exit.code == exit_accepted);
        CHECK(json.at("kernels").size() == 2);
    }
    const auto text = with_fake_ncu({"profile", "reduction", kWarpShuffle});
    if (text.exit.code == exit_no_device) {
        CHECK(contains(text.output, "compile  ok"));
        CHECK(contains(text.output, "verdict: no_device"));
    }
}

TEST_CASE("profile of a file that does not compile is a compile error", "[cli][profile]") {
    const auto result = with_fake_ncu({"profile", "reduction", kFixtures + "/wrong_signature.cu"});
    CHECK(result.exit.code == exit_compile_error);
    CHECK(contains(result.output, "wrong_signature.cu(3): error"));
    CHECK(contains(result.output, "verdict: compile_error"));
}

TEST_CASE("profile's mistakes on the command line are usage errors", "[cli][profile]") {
    auto result = with_fake_ncu({"profile", "reduction", kWarpShuffle, "--test", "N = 7"});
    CHECK(result.exit.code == exit_usage);
    CHECK(result.output ==
          "gpujudge: reduction has no benchmark test named 'N = 7' (its benchmarks: 'N = 50M', 'N = 100M')\n");
    result = with_fake_ncu({"profile", "reduction", kWarpShuffle, "--compare", kWarpShuffle, kWarpShuffle});
    CHECK(result.exit.code == exit_usage);
    CHECK(result.output == "gpujudge: profile takes one source file, or --compare A.cu B.cu, not both\n");
    result = with_fake_ncu({"profile", "reduction"});
    CHECK(result.exit.code == exit_usage);
    CHECK(result.output == "gpujudge: profile needs a source file, or --compare A.cu B.cu\n");
    result = with_fake_ncu({"profile", "reduction", "--compare", kWarpShuffle});
    CHECK(result.exit.code == exit_usage);
}

TEST_CASE("profile --json: per kernel, the roofline, the suggestions and the report's path", "[cli][profile]") {
    const auto result =
        with_fake_ncu({"--backend", "host", "profile", "--json", kTinySum, kHostSolutions + "correct.cpp"});
    REQUIRE(result.exit.code == exit_accepted);
    const auto json = json_of(result);
    CHECK(json.at("verdict") == "accepted");
    CHECK(json.at("test") == "N = 100000");
    CHECK(json.at("bytes") == 400004);
    CHECK(json.at("time_us").get<double>() > 0);
    CHECK(json.at("judgement").at("tests").size() == 1);  // the profiled benchmark alone
    const auto& command = json.at("ncu_command");
    CHECK(command.at(0).get<std::string>() == kFixtures + "/ncu/bin/ncu");
    CHECK(command.at(1) == "--profile-from-start");
    CHECK(command.at(2) == "off");
    // The same file, whatever links lead to it (the GPU machine's bin/ is a link to a packed copy).
    CHECK(std::filesystem::equivalent(command.back().get<std::string>(), GPUJUDGE_BIN_DIR "/gpujudge-runner"));
    const std::filesystem::path report = json.at("report").get<std::string>();
    CHECK(report.extension() == ".ncu-rep");
    CHECK(std::filesystem::exists(report));
    CHECK(report.parent_path() == std::filesystem::path(GPUJUDGE_TEST_CACHE) / "profiles");
    REQUIRE(json.at("kernels").size() == 2);
    const auto& kernel = json.at("kernels").at(0);
    CHECK(kernel.at("short_name") == "reduce_good");
    CHECK(kernel.at("duration_us") == Approx(739.456));
    CHECK(kernel.at("stalls").at(0).at("reason") == "long_scoreboard");
    CHECK(kernel.at("stalls").at(0).at("meaning") ==
          "waiting for data from global or local memory (a load that has not returned)");
    for (const char* key : {"bytes", "time_us", "kernel_us", "dram_bytes", "extra_dram_bytes", "outside_kernels_us",
                            "idle_sm_us", "below_ceiling_us"})
        CHECK(json.at("roofline").contains(key));
    CHECK(json.at("roofline").at("kernels") == 2);
    CHECK(json.at("suggestions").is_array());
    CHECK(json.at("suggestions").size() <= 3);
}

TEST_CASE("profile's report: each kernel, the roofline, the suggestions, the report's path", "[cli][profile]") {
    const auto result = with_fake_ncu({"-v", "--backend", "host", "profile", kTinySum, kHostSolutions + "correct.cpp"});
    REQUIRE(result.exit.code == exit_accepted);
    const std::string& text = result.output;
    // -v logs ncu's exact command lines, to run them again by hand.
    CHECK(contains(text, "ncu: " + kFixtures + "/ncu/bin/ncu --profile-from-start off --clock-control none"));
    CHECK(contains(text, " --csv --page raw --print-units base\n"));
    CHECK(contains(text, "test     N = 100000: "));
    CHECK(contains(text, "\nkernel 1 of 2: reduce_good  739.5 µs\n"));
    CHECK(contains(text,
                   "  launch     grid (390625, 1, 1) x block (256, 1, 1), 16 registers per thread, 1.0 KB shared "
                   "memory per block\n"));
    CHECK(contains(text, "  DRAM       400.1 MB read, 2.5 MB written: 544 GB/s\n"));
    CHECK(contains(text, "  caches     L1 hit 0.0 %, L2 hit 3.7 %\n"));
    CHECK(contains(text, "  occupancy  91.1 % achieved of 100.0 % theoretical; 8 blocks per SM, 369.91 waves\n"));
    CHECK(contains(text,
                   "  stalls     long_scoreboard 43 %: waiting for data from global or local memory (a load that has "
                   "not returned)\n             barrier 33 %: waiting at __syncthreads() for the other warps of its "
                   "block\n"));
    CHECK(contains(text, "\nroofline   no measured ceiling for this device: "));  // the host backend has none
    CHECK(contains(text, "\nsuggestions"));
    CHECK(contains(text, "\nreport     " GPUJUDGE_TEST_CACHE "/profiles/tiny_sum-correct-"));
}

TEST_CASE("profile --compare puts two submissions side by side, each with its verdict", "[cli][profile]") {
    const std::vector<std::string> compare{"--backend",
                                           "host",
                                           "profile",
                                           kTinySum,
                                           "--compare",
                                           kHostSolutions + "correct.cpp",
                                           kHostSolutions + "off_by_one.cpp"};
    const auto result = with_fake_ncu(compare);
    CHECK(result.exit.code == exit_wrong_answer);  // the first that failed decides
    const std::string& text = result.output;
    CHECK(contains(text, "problem  Tiny Sum (tiny_sum), test N = 100000\n"));
    CHECK(contains(text, "correct.cpp"));
    CHECK(contains(text, "off_by_one.cpp"));
    CHECK(contains(text, "\nverdict                 accepted                          wrong_answer"));
    CHECK(contains(text, "\nkernels                 2                                 wrong_answer"));
    CHECK(contains(text, "\nlongest kernel          reduce_good 739.5 µs"));
    CHECK(contains(text, kHostSolutions + "off_by_one.cpp: wrong_answer: test 'N = 100000': "));
    std::vector<std::string> json_args = compare;
    json_args.push_back("--json");
    const auto json = json_of(with_fake_ncu(json_args));
    CHECK(json.at("problem") == "tiny_sum");
    REQUIRE(json.at("profiles").size() == 2);
    CHECK(json.at("profiles").at(0).at("verdict") == "accepted");
    CHECK(json.at("profiles").at(0).at("kernels").size() == 2);
    CHECK(json.at("profiles").at(1).at("verdict") == "wrong_answer");
    CHECK(!json.at("profiles").at(1).contains("kernels"));
}

TEST_CASE("a call that hangs under ncu ends at the profiled call's limit, as time_limit_exceeded", "[cli][profile]") {
    const auto start = std::chrono::steady_clock::now();
    const auto result =
        profile_env({path_with_fake_ncu(), "GPUJUDGE_PROFILE_LIMIT_S=2"},
                    {"--backend", "host", "profile", kTinySum, kHostSolutions + "hangs_when_profiled.cpp"});
    CHECK(result.exit.code == exit_time_limit_exceeded);
    CHECK(contains(result.output, "verdict: accepted (1/1 tests passed)\n"));  // unprofiled, it passed
    CHECK(contains(result.output,
                   "profile: time_limit_exceeded: the call under ncu: solve did not finish within 2 s under ncu; the "
                   "process was killed\n"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}

TEST_CASE("a link where ncu's report goes is not followed into the profiles folder", "[cli][profile]") {
    const auto result = profile_env({path_with_fake_ncu(), "FAKE_NCU=symlink"},
                                    {"--backend", "host", "profile", kTinySum, kHostSolutions + "correct.cpp"});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output.rfind("gpujudge: ncu wrote no report (" GPUJUDGE_TEST_CACHE "/profiles/tiny_sum-correct-", 0) ==
          0);
    for (const auto& entry : std::filesystem::directory_iterator(GPUJUDGE_TEST_CACHE "/profiles"))
        CHECK_FALSE(std::filesystem::is_symlink(entry.symlink_status()));
}

TEST_CASE("ncu failing otherwise is an environment error that shows what ncu said", "[cli][profile]") {
    const auto result = profile_env({path_with_fake_ncu(), "FAKE_NCU=fails"},
                                    {"--backend", "host", "profile", kTinySum, kHostSolutions + "correct.cpp"});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output.rfind("gpujudge: ncu wrote no report (" GPUJUDGE_TEST_CACHE "/profiles/tiny_sum-correct-", 0) ==
          0);
    CHECK(contains(result.output, ".ncu-rep); it printed:\n==ERROR== An error was reported by the driver\n"));
}
