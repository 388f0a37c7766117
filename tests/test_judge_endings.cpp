// How a judgement ends when gpujudge is stopped in its middle. By a stop signal (Ctrl-C, scancel, a
// closed terminal): gpujudge dies of it, as the shell expects, but first its children end and its
// temporary folders go. By SIGKILL: the next gpujudge removes the folders.
#include "cli_test_support.hpp"

#include <signal.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <thread>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

// A judgement of slow.cpp (0.4 s a call) on the host backend with `tmp`/tmp as its TMPDIR, once its
// runner is there: bwrap binds its sandbox folder.
std::unique_ptr<child_process> slow_judgement(const std::filesystem::path& tmp) {
    spawn_options options;
    options.output_file = tmp / "output.txt";
    auto judge = std::make_unique<child_process>(
        std::vector<std::string>{"/usr/bin/env", "TMPDIR=" + (tmp / "tmp").string(),
                                 "GPUJUDGE_DATA_DIR=" + tmp.string(), "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE,
                                 GPUJUDGE_BIN_DIR "/gpujudge", "--home", kFixtures, "--backend", "host", "submit",
                                 "tiny_sum", kFixtures + "/host_solutions/slow.cpp"},
        options);
    const std::string folder = (tmp / "tmp" / "gpujudge-sandbox-").string();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (processes_with(folder).empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE_FALSE(processes_with(folder).empty());
    return judge;
}

std::set<std::string> names_in(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename());
    return names;
}

// The judgement's folder of expected outputs in `tmp`, once the judge has made it: it is made when
// the references are asked for, which may come after the runner's sandbox is up. None after 60 s.
std::set<std::string> expected_folders(const std::filesystem::path& tmp) {
    std::set<std::string> found;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (found.empty() && std::chrono::steady_clock::now() < deadline) {
        for (const auto& name : names_in(tmp))
            if (name.rfind("gpujudge-expected-", 0) == 0) found.insert(name);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return found;
}

// Dates every entry of `dir` two minutes back: old enough to be swept, were it abandoned.
void age(const std::filesystem::path& dir) {
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        std::filesystem::last_write_time(entry.path(),
                                         std::filesystem::file_time_type::clock::now() - std::chrono::minutes(2));
}

}  // namespace

TEST_CASE("a stop signal during a judgement ends gpujudge by that signal, its children and temporary folders gone",
          "[cli][signals]") {
    const int signal = GENERATE(SIGINT, SIGTERM, SIGHUP);
    INFO(sigabbrev_np(signal));
    // A temporary folder of its own: what is left in it is what this judge left.
    const auto tmp = std::filesystem::path(GPUJUDGE_TEST_CACHE) / ("stop-signal-" + std::to_string(signal));
    std::filesystem::remove_all(tmp);
    std::filesystem::create_directories(tmp / "tmp");
    auto judge = slow_judgement(tmp);
    const std::string folder = (tmp / "tmp" / "gpujudge-sandbox-").string();
    REQUIRE(::kill(judge->pid(), signal) == 0);
    const child_exit exit = judge->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
    INFO(read_file_text(tmp / "output.txt").value_or(""));
    CHECK_FALSE(exit.timed_out);
    CHECK(exit.signaled);
    CHECK(exit.signal == signal);
    CHECK(std::filesystem::is_empty(tmp / "tmp"));
    CHECK(processes_with(folder).empty());  // the judge waited for bwrap to end, and with it the runner
    std::filesystem::remove_all(tmp);
}

TEST_CASE("the folders of a judge killed by SIGKILL go when the next gpujudge starts, a live judge's stay",
          "[cli][signals]") {
    const auto killed = std::filesystem::path(GPUJUDGE_TEST_CACHE) / "sigkill-killed";
    const auto live = std::filesystem::path(GPUJUDGE_TEST_CACHE) / "sigkill-live";
    for (const auto& root : {killed, live}) {
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root / "tmp");
    }
    {
        auto judge = slow_judgement(killed);
        REQUIRE_FALSE(expected_folders(killed / "tmp").empty());
        judge->kill_group();
        judge->wait();
    }
    const std::set<std::string> left = names_in(killed / "tmp");
    REQUIRE(left.size() >= 3);  // its expected outputs, its run and its sandbox folders
    std::filesystem::create_directories(killed / "tmp" / "gpujudge-cache" / "lib");  // the default compile cache
    std::filesystem::create_directories(killed / "tmp" / "gpujudge-fresh-abcdef");   // just made: not yet locked
    age(killed / "tmp");
    std::filesystem::last_write_time(killed / "tmp" / "gpujudge-fresh-abcdef",
                                     std::filesystem::file_time_type::clock::now());
    auto running = slow_judgement(live);
    // Its folder that lasts as long as the judgement, the expected outputs' (made once its references
    // are asked for): a compile's, a command's or a runner's go when those end, and may have gone by
    // the second look without any sweep.
    const std::set<std::string> in_use = expected_folders(live / "tmp");
    REQUIRE_FALSE(in_use.empty());
    age(live / "tmp");
    for (const auto& tmp : {killed / "tmp", live / "tmp"}) {
        const auto listed = run_command(
            {"/usr/bin/env", "TMPDIR=" + tmp.string(), GPUJUDGE_BIN_DIR "/gpujudge", "--home", kFixtures, "list"},
            std::chrono::seconds(60));
        REQUIRE(listed.exit.code == 0);
    }
    CHECK(names_in(killed / "tmp") == std::set<std::string>{"gpujudge-cache", "gpujudge-fresh-abcdef"});
    const std::set<std::string> after = names_in(live / "tmp");  // it may have made more since
    CHECK(std::includes(after.begin(), after.end(), in_use.begin(), in_use.end()));
    running->kill_group();
    running->wait();
    std::filesystem::remove_all(killed);
    std::filesystem::remove_all(live);
}
