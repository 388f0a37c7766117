// A stop signal in the middle of a judgement (Ctrl-C, scancel, a closed terminal): gpujudge dies of
// it, as the shell expects, but first its children end and its temporary folders go.
#include "cli_test_support.hpp"

#include <signal.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <thread>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

}  // namespace

TEST_CASE("a stop signal during a judgement ends gpujudge by that signal, its children and temporary folders gone",
          "[cli][signals]") {
    const int signal = GENERATE(SIGINT, SIGTERM, SIGHUP);
    INFO(sigabbrev_np(signal));
    // A temporary folder of its own: what is left in it is what this judge left.
    const auto tmp = std::filesystem::path(GPUJUDGE_TEST_CACHE) / ("stop-signal-" + std::to_string(signal));
    std::filesystem::remove_all(tmp);
    std::filesystem::create_directories(tmp / "tmp");
    spawn_options options;
    options.output_file = tmp / "output.txt";
    child_process judge({"/usr/bin/env", "TMPDIR=" + (tmp / "tmp").string(), "GPUJUDGE_DATA_DIR=" + tmp.string(),
                         "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE, GPUJUDGE_BIN_DIR "/gpujudge", "--home", kFixtures,
                         "--backend", "host", "submit", "tiny_sum", kFixtures + "/host_solutions/slow.cpp"},
                        options);
    // Its runner is there once bwrap binds its sandbox folder: each call of slow.cpp then takes 0.4 s.
    const std::string folder = (tmp / "tmp" / "gpujudge-sandbox-").string();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (processes_with(folder).empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE_FALSE(processes_with(folder).empty());
    REQUIRE(::kill(judge.pid(), signal) == 0);
    const child_exit exit = judge.wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
    INFO(read_file_text(tmp / "output.txt").value_or(""));
    CHECK_FALSE(exit.timed_out);
    CHECK(exit.signaled);
    CHECK(exit.signal == signal);
    CHECK(std::filesystem::is_empty(tmp / "tmp"));
    CHECK(processes_with(folder).empty());  // the judge waited for bwrap to end, and with it the runner
    std::filesystem::remove_all(tmp);
}
