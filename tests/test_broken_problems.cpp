// tests/fixtures/broken_problems/<variant>/: a copy of tiny_sum with one mistake, in problem.yaml or in
// reference.cpp, and expected_error.txt: the first line of the error that `gpujudge validate <variant>`
// prints, with the variant's folder left out of paths ("problem.yaml:LINE: message", "reference.cpp:
// message"). A broken reference (one that exits, crashes, hangs, throws, prints, or disagrees with an
// example) is the problem's fault: exit 10, never a pass, never a crash of the judge, never charged to a
// submission.
#include "base/exit_codes.hpp"
#include "process/child_process.hpp"

#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gpujudge;

namespace {

namespace fs = std::filesystem;

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

// The hanging reference is killed after this, not after the default 120 s.
const std::string kReferenceLimit = "GPUJUDGE_REFERENCE_LIMIT_S=5";

command_result gpujudge_cli(std::vector<std::string> args) {
    args.insert(args.begin(), {"env", kReferenceLimit, "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE,
                               GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never"});
    return run_command(args, std::chrono::seconds(300));
}

std::string replaced_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

// The first error line under "FAIL  <name>", its two-space indent removed.
std::string first_error(const std::string& output) {
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line) && line.rfind("FAIL  ", 0) != 0) {
    }
    std::getline(lines, line);
    return line.rfind("  ", 0) == 0 ? line.substr(2) : "no error line in:\n" + output;
}

std::string expected_error(const fs::path& variant) {
    std::ifstream file(variant / "expected_error.txt");
    std::string line;
    std::getline(file, line);
    return line;
}

int parent_of(int pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    const std::string stat((std::istreambuf_iterator<char>(file)), {});
    const std::size_t end_of_name = stat.rfind(')');  // the name may hold spaces and parentheses
    if (end_of_name == std::string::npos) return -1;
    std::istringstream fields(stat.substr(end_of_name + 1));
    std::string state;
    int parent = -1;
    fields >> state >> parent;
    return parent;
}

std::string program_of(int pid) {
    std::error_code error;
    return fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", error).string();
}

// Runners of this build that no judge is waiting for: those of this process (no test here starts one
// in-process, and earlier tests must have ended theirs) and those whose judge has gone. Runners of other
// judges running beside this test (CTest in parallel) are theirs.
std::vector<int> stray_runners() {
    const std::string runner = fs::weakly_canonical(GPUJUDGE_BIN_DIR "/gpujudge-runner").string();
    std::vector<int> stray;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos || program_of(std::stoi(name)) != runner)
            continue;
        // A sandboxed runner's parents are bwrap (the namespace's init, then bwrap itself): the
        // judge is the first process above them.
        int parent = parent_of(std::stoi(name));
        while (parent > 1 && fs::path(program_of(parent)).filename() == "bwrap") parent = parent_of(parent);
        // A live judge's runner is no stray: gpujudge's, or a test binary's running beside this one under
        // ctest -j (gpujudge_tests, gpujudge_python_tests); one left to init or a subreaper is.
        const std::string judge = fs::path(program_of(parent)).filename().string();
        if (parent == getpid() || judge.rfind("gpujudge", 0) != 0) stray.push_back(std::stoi(name));
    }
    return stray;
}

std::vector<fs::path> variants() {
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(kFixtures + "/broken_problems")) dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("validate refuses every broken problem with exit 10 and its message, and leaves no runner behind",
          "[broken_problems]") {
    const auto dirs = variants();
    CHECK(dirs.size() >= 25);
    for (const char* needed : {"reference_exit_0", "reference_segfault", "reference_hang"})
        CHECK(fs::is_directory(kFixtures + "/broken_problems/" + needed));
    for (const auto& dir : dirs) {
        INFO(dir.filename().string());
        const std::string expected = expected_error(dir);
        REQUIRE(!expected.empty());
        const auto result = gpujudge_cli({"validate", dir.string()});
        CHECK(result.exit.code == exit_invalid_problem);
        CHECK(replaced_all(first_error(result.output), dir.string() + "/", "") == expected);
    }
    CHECK(stray_runners().empty());
}

TEST_CASE("a reference refused after writing its outputs leaves none cached: it is refused again",
          "[broken_problems]") {
    const std::string dir = kFixtures + "/broken_problems/reference_floods_stdout";
    for (int run = 0; run < 2; ++run) {
        INFO("run " << run);
        const auto result = gpujudge_cli({"validate", dir});
        CHECK(result.exit.code == exit_invalid_problem);
        CHECK(replaced_all(first_error(result.output), dir + "/", "") == expected_error(dir));
    }
}

TEST_CASE("submit with a broken reference exits 10 and never charges the submission", "[broken_problems]") {
    for (const char* variant : {"reference_exit_0", "reference_exit_3", "reference_segfault", "reference_hang",
                                "reference_throws", "reference_missing", "benchmark_beyond_memory",
                                "reference_unwritten_beyond_examples", "reference_crash_beyond_examples"}) {
        INFO(variant);
        const fs::path dir = kFixtures + "/broken_problems/" + variant;
        const auto result = gpujudge_cli(
            {"--backend", "host", "submit", "--no-bench", dir.string(), kFixtures + "/host_solutions/correct.cpp"});
        CHECK(result.exit.code == exit_invalid_problem);
        // expected_error.txt names reference.cpp relative to the variant; submit names it in full. An
        // example's expected outputs are its literal ones: submit's first reference test is 'N = 5'.
        const std::string error = replaced_all(expected_error(dir), "test 'example'", "test 'N = 5'");
        CHECK(contains(result.output, "gpujudge: " + (dir / error).string() + "\n"));
        CHECK_FALSE(contains(result.output, "runtime_error"));
    }
    CHECK(stray_runners().empty());
}
