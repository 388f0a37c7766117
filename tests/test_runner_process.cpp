// The judge's end of a runner process, against stand-in runners (shell scripts in the place of
// gpujudge-runner): a runner that stops reading cannot hold the judge, a line it did not seal is
// a forgery, an endless line too, and a runner that ends is seen to end.
#include "base/temp_dir.hpp"
#include "runner/process.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace gpujudge;

namespace {

using clock = std::chrono::steady_clock;

// A runner_process whose "runner" is `script` (sh -c), unsandboxed, on the host backend.
std::unique_ptr<runner_process> stand_in(const std::string& script, const temp_dir& work) {
    return std::make_unique<runner_process>("/bin/true", hello_job{"", runner_backend::host, "/", "", {}}, work.path(),
                                            4096, std::vector<std::string>{"/bin/sh", "-c", script, "sh"});
}

}  // namespace

TEST_CASE("a runner that stops reading its jobs cannot hold the judge", "[runner][process]") {
    const temp_dir work("process");
    auto runner = stand_in("exec sleep 60", work);  // holds the control pipe, never reads it
    const nlohmann::json big = {{"job", "judge"}, {"body", std::string(std::size_t{1} << 20, 'x')}};
    const auto start = clock::now();
    CHECK_FALSE(runner->send(big, clock::now() + std::chrono::milliseconds(500)));
    CHECK(clock::now() - start < std::chrono::seconds(30));  // not blocked in write until the sleep ends
    runner->finish(true);
}

TEST_CASE("a runner that reads its jobs takes a line larger than the pipe", "[runner][process]") {
    const temp_dir work("process");
    auto runner = stand_in("exec cat <&4 >/dev/null", work);
    const nlohmann::json big = {{"job", "judge"}, {"body", std::string(std::size_t{1} << 20, 'x')}};
    CHECK(runner->send(big, clock::now() + std::chrono::seconds(30)));
    runner->finish(true);
}

TEST_CASE("an unsealed line on the result channel is a forgery", "[runner][process][channel]") {
    const temp_dir work("process");
    auto runner = stand_in(R"(echo '{"event":"done","body":{}}' >&3; exec sleep 60)", work);
    nlohmann::json message;
    CHECK(runner->next(message, clock::now() + std::chrono::seconds(30)) == runner_process::read_status::forged);
    runner->finish(true);
}

TEST_CASE("a line longer than any message is a forgery, before it ends", "[runner][process][channel]") {
    const temp_dir work("process");
    auto runner = stand_in("head -c 20000000 /dev/zero | tr '\\0' a >&3; exec sleep 60", work);
    nlohmann::json message;
    CHECK(runner->next(message, clock::now() + std::chrono::seconds(60)) == runner_process::read_status::forged);
    runner->finish(true);
}

TEST_CASE("a runner that ends closes its channel, and its exit is read", "[runner][process]") {
    const temp_dir work("process");
    auto runner = stand_in("exit 3", work);
    nlohmann::json message;
    CHECK(runner->next(message, clock::now() + std::chrono::seconds(30)) == runner_process::read_status::closed);
    const child_exit exit = runner->finish(false);
    CHECK_FALSE(exit.signaled);
    CHECK(exit.code == 3);
}

TEST_CASE("a silent runner times out at the deadline", "[runner][process]") {
    const temp_dir work("process");
    auto runner = stand_in("exec sleep 60", work);
    nlohmann::json message;
    CHECK(runner->next(message, clock::now() + std::chrono::milliseconds(200)) == runner_process::read_status::timeout);
    runner->finish(true);
}
