// gpujudge sanitize as a user runs it, without a GPU: its documented messages and exit codes, and
// the whole path (runner behind the tool, the tool's report read from its log file once it has
// ended) through a stand-in for compute-sanitizer that writes a real report of the tool
// (tests/fixtures/sanitizer/bin/compute-sanitizer) around the host-built fake solutions.
#include "base/exit_codes.hpp"
#include "cli_test_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

using namespace gpujudge;

namespace {

const std::string kSource = GPUJUDGE_SOURCE_DIR;
const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kTinySum = kFixtures + "/problems/tiny_sum";
const std::string kHostSolutions = kFixtures + "/host_solutions";

// PATH with the stand-in for compute-sanitizer first.
std::string path_with_stand_in() {
    const char* path = std::getenv("PATH");
    return "PATH=" + kFixtures + "/sanitizer/bin:" + (path ? path : "/usr/bin:/bin");
}

// `sanitize` on a host-built fake, the stand-in writing `log` (a fixture) as the tool's report.
command_result sanitize_host(const std::string& solution, const std::string& log, std::vector<std::string> extra = {}) {
    // The stand-in runs in the sandbox, in front of the runner: it sees its variables when named.
    std::vector<std::string> env{path_with_stand_in(), "FAKE_SANITIZER_FILE=" + solution + ".cpp",
                                 "GPUJUDGE_SANDBOX_ENV=FAKE_SANITIZER_FILE,FAKE_SANITIZER_LOG"};
    if (!log.empty()) env.push_back("FAKE_SANITIZER_LOG=" + kFixtures + "/sanitizer/" + log);
    std::vector<std::string> args{
        "--color", "never", "--backend", "host", "sanitize", kTinySum, kHostSolutions + "/" + solution + ".cpp"};
    args.insert(args.end(), extra.begin(), extra.end());
    return gpujudge_env(env, args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The output's last line: sanitize's verdict.
std::string last_line(const std::string& text) {
    const std::size_t end = text.find_last_not_of('\n');
    const std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

TEST_CASE("sanitize without compute-sanitizer says where it looked, with exit code 13", "[cli][sanitize]") {
    if (std::filesystem::exists("/usr/local/cuda/bin/compute-sanitizer")) {
        WARN("skipped: /usr/local/cuda/bin has compute-sanitizer on this machine");
        return;
    }
    const auto result =
        gpujudge_env({"PATH=/usr/bin:/bin", "CUDA_HOME=/nonexistent"},
                     {"--home", kSource, "sanitize", "reduction", kSource + "/solutions/reduction/warp_shuffle.cu"});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output ==
          "gpujudge: compute-sanitizer not found on PATH, in /nonexistent/bin or in /usr/local/cuda/bin: `sanitize` "
          "runs the submission under it; install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), "
          "then add its bin folder to PATH or set CUDA_HOME to the folder it is installed in\n");
    const auto unset =
        gpujudge_env({"-u", "CUDA_HOME", "PATH=/usr/bin:/bin"},
                     {"--home", kSource, "sanitize", "reduction", kSource + "/solutions/reduction/warp_shuffle.cu"});
    CHECK(unset.exit.code == exit_environment);
    CHECK(contains(unset.output, "gpujudge: compute-sanitizer not found on PATH or in /usr/local/cuda/bin: "));
}

TEST_CASE("sanitize with an unknown --tool is a usage error", "[cli][sanitize]") {
    const auto result = gpujudge_env({}, {"--home", kSource, "sanitize", "reduction",
                                          kSource + "/solutions/reduction/warp_shuffle.cu", "--tool", "leakcheck"});
    CHECK(result.exit.code == exit_usage);
    CHECK(result.output.rfind("gpujudge: --tool: leakcheck not in {", 0) == 0);
}

TEST_CASE("sanitize of a file that does not compile is a compile error, exit 2", "[cli][sanitize]") {
    const auto result = gpujudge_env({path_with_stand_in()}, {"--color", "never", "--home", kSource, "sanitize",
                                                              "reduction", kFixtures + "/wrong_signature.cu"});
    CHECK(result.exit.code == exit_compile_error);
    CHECK(contains(result.output, "wrong_signature.cu(3): error"));
    CHECK(last_line(result.output) == "sanitize: not run (compile_error)");
}

TEST_CASE("sanitize without a GPU stops with no_device, exit 6", "[cli][sanitize]") {
    const auto result =
        gpujudge_env({path_with_stand_in()}, {"--color", "never", "--home", kSource, "sanitize", "reduction",
                                              kSource + "/solutions/reduction/warp_shuffle.cu"});
    if (result.exit.code != exit_no_device && contains(result.output, "device   NVIDIA")) {
        WARN("skipped: this machine has a GPU");
        return;
    }
    CHECK(result.exit.code == exit_no_device);
    CHECK(last_line(result.output).rfind("sanitize: not run (no_device: ", 0) == 0);
}

TEST_CASE("sanitize reads the tool's report once it has ended, and maps it to the user's file", "[cli][sanitize]") {
    const auto result = sanitize_host("correct", "memcheck.txt");
    INFO(result.output);
    CHECK(result.exit.code == exit_sanitizer_findings);
    CHECK(contains(result.output, kHostSolutions + "/correct.cpp:23: Invalid __global__ read of size 4 bytes (24 "
                                                   "reports)\n"));
    CHECK(last_line(result.output) == "sanitize: 1 finding (memcheck)");

    const auto json =
        nlohmann::json::parse(sanitize_host("correct", "racecheck.txt", {"--tool", "racecheck", "--json"}).output);
    CHECK(json.at("verdict") == "findings");
    CHECK(json.at("exit_code") == exit_sanitizer_findings);
    CHECK(json.at("findings").size() == 2);
    CHECK(json.at("findings")[0].at("place") == kHostSolutions + "/correct.cpp:18");
    CHECK(json.at("tests").size() == 3);  // the examples and functional tests, not the benchmarks
}

TEST_CASE("sanitize: clean when the tool ran through every test and found nothing", "[cli][sanitize]") {
    const auto result = sanitize_host("correct", "memcheck_clean.txt");
    CHECK(result.exit.code == exit_accepted);
    CHECK(last_line(result.output) == "sanitize: clean (memcheck, 3 tests)");
    // A wrong answer is submit's verdict; the tool still saw every test, each one run.
    const auto wrong = sanitize_host("off_by_one", "memcheck_clean.txt");
    CHECK(wrong.exit.code == exit_accepted);
    CHECK(contains(wrong.output,
                   "under the tool, 3 of 3 tests did not pass (a kernel the tool stops leaves its output unfinished; "
                   "submit judges answers): 'example' wrong_answer, 'N = 5' wrong_answer, 'N = 1000' wrong_answer\n"));
}

TEST_CASE("sanitize never reads findings from what the submission prints", "[cli][sanitize]") {
    // It prints a report of the tool's on stdout; the tool's own report is clean.
    const auto result = sanitize_host("prints_findings", "memcheck_clean.txt");
    CHECK(result.exit.code == exit_accepted);
    CHECK(last_line(result.output) == "sanitize: clean (memcheck, 3 tests)");
}

TEST_CASE("sanitize reads its log as a regular file, never through a link the submission put there",
          "[cli][sanitize]") {
    const auto result = sanitize_host("links_the_sanitizer_log", "memcheck.txt");
    CHECK(contains(result.output, "compute-sanitizer's log was not read: it is a symbolic link"));
    CHECK(last_line(result.output) == "sanitize: incomplete (memcheck, compute-sanitizer ended before its summary)");
}

TEST_CASE("sanitize: a tool killed before its summary is no clean bill", "[cli][sanitize]") {
    const auto unfinished = sanitize_host("correct", "");
    CHECK(unfinished.exit.code == exit_environment);
    CHECK(last_line(unfinished.output) ==
          "sanitize: incomplete (memcheck, compute-sanitizer ended before its summary)");
    const auto crash = sanitize_host("crashes", "");
    CHECK(crash.exit.code == exit_runtime_error);
    CHECK(last_line(crash.output) ==
          "sanitize: incomplete (memcheck, 1 of 3 tests ran; test 'example': runtime_error)");
}
