#pragma once
// What the judge asks of a runner process, and the messages the runner answers with.
// Jobs travel as a JSON file; messages as JSON lines on file descriptor 3, so that whatever the
// submission prints on stdout or stderr cannot be mistaken for them.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpujudge {

constexpr int kRunnerChannelFd = 3;

enum class runner_mode { probe, judge, bench };
enum class runner_backend { device, host };

struct runner_job {
    runner_mode mode = runner_mode::judge;
    runner_backend backend = runner_backend::device;
    std::string problem_dir;
    std::string solution;   // shared library with solve
    std::string reference;  // shared library with reference
    std::vector<int> tests;  // positions in problem_spec::tests, in order
    nlohmann::json bench;    // bench settings (see bench.hpp)
};

void to_json(nlohmann::json& out, const runner_job& job);
void from_json(const nlohmann::json& in, runner_job& job);

// Message kinds ("event" field).
namespace event {
constexpr const char* device = "device";        // {name, cc, sm_count, l2_bytes, memory_bytes}
constexpr const char* no_device = "no_device";  // {message}
constexpr const char* begin = "begin";          // {test}: preparing the test's data
constexpr const char* call = "call";            // {test}: solve is being called: the time limit runs
constexpr const char* returned = "returned";    // {test}: solve returned and the device is synchronised
constexpr const char* result = "result";        // {test, verdict, message, wall_ms}
constexpr const char* peak = "peak";            // bench: {gbps}, the measured memory ceiling
constexpr const char* fatal = "fatal";          // {message}: the runner cannot go on
constexpr const char* done = "done";
}  // namespace event

}  // namespace gpujudge
