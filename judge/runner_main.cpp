// gpujudge-runner: the child process that loads a submission and calls it. The judge starts one
// per submission (and again after a crash), in its own process group, and reads its messages from
// file descriptor 3. Nothing here trusts solve to return, to keep the device healthy, or to stay quiet.
#include "c_function.hpp"
#include "device_info.hpp"
#include "judged_call.hpp"
#include "memory_space.hpp"
#include "runner_job.hpp"
#include "runner_modes.hpp"
#include "shared_library.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>

namespace gpujudge {

namespace {

// Emits a JSON line on the channel and flushes it at once: the judge acts on each as it arrives.
class channel {
public:
    channel() : file_(fdopen(kRunnerChannelFd, "w")) {}
    bool ok() const { return file_ != nullptr; }
    void send(const nlohmann::json& message) {
        const std::string line = message.dump() + "\n";
        std::fwrite(line.data(), 1, line.size(), file_);
        std::fflush(file_);
    }

private:
    FILE* file_;
};

// Tells the judge when solve is running, and measures the call on the host clock.
class announcing_listener : public call_listener {
public:
    announcing_listener(channel& out, int test) : out_(out), test_(test) {}
    void before_call() override {
        out_.send({{"event", event::call}, {"test", test_}});
        start_ = std::chrono::steady_clock::now();
    }
    void after_finish() override {
        wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
        out_.send({{"event", event::returned}, {"test", test_}});
    }
    double wall_ms = 0;

private:
    channel& out_;
    int test_;
    std::chrono::steady_clock::time_point start_;
};

int judge_tests(const runner_job& job, const problem_spec& spec, memory_space& space, channel& out) {
    const shared_library reference_library(job.reference);
    const c_function reference(reference_library.symbol("reference"), spec.params);
    const shared_library solution_library(job.solution);
    const c_function solve(solution_library.symbol("solve"), spec.params);
    for (const int index : job.tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        out.send({{"event", event::begin}, {"test", index}});
        const test_data data = prepare_test(spec, test, reference);
        announcing_listener listener(out, index);
        const call_outcome outcome = judge_call(spec, space, solve, data, listener);
        out.send({{"event", event::result},
                  {"test", index},
                  {"verdict", to_string(outcome.result)},
                  {"message", outcome.message},
                  {"wall_ms", listener.wall_ms}});
        // After a sticky error the context is gone: the judge starts a fresh runner for the rest.
        if (outcome.context_lost) return 0;
    }
    out.send({{"event", event::done}});
    return 0;
}

int run(const runner_job& job, channel& out) {
    std::unique_ptr<memory_space> space;
    if (job.backend == runner_backend::device) {
        auto device = open_device();
        if (auto* reason = std::get_if<std::string>(&device)) {
            out.send({{"event", event::no_device}, {"message", *reason}});
            return 0;
        }
        const auto& info = std::get<device_info>(device);
        out.send({{"event", event::device},
                  {"name", info.name},
                  {"uuid", info.uuid},
                  {"arch", info.arch()},
                  {"sm_count", info.sm_count},
                  {"l2_bytes", info.l2_bytes},
                  {"memory_bytes", info.memory_bytes}});
        if (job.mode == runner_mode::probe) return 0;
        space = make_device_space();
    } else {
        space = make_host_space();
    }
    const problem_spec spec = load_problem(job.problem_dir);
    if (job.mode == runner_mode::bench) return run_bench(job, spec, *space, [&](const nlohmann::json& m) { out.send(m); });
    return judge_tests(job, spec, *space, out);
}

}  // namespace

}  // namespace gpujudge

int main(int argc, char** argv) {
    using namespace gpujudge;
    // Die with the judge, whatever happens to it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    channel out;
    if (argc != 2 || !out.ok()) {
        std::fprintf(stderr, "usage: gpujudge-runner JOB.json (started by gpujudge, channel on fd 3)\n");
        return 2;
    }
    try {
        std::ifstream file(argv[1]);
        const runner_job job = nlohmann::json::parse(file).get<runner_job>();
        return run(job, out);
    } catch (const std::exception& error) {
        out.send({{"event", event::fatal}, {"message", error.what()}});
        return 1;
    }
}
