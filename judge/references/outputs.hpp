#pragma once
// Expected outputs, computed by the problem's reference in a process of its own (a crash, a hang or
// an exit() there is the problem's fault, never the submission's) and cached on disk by everything
// they depend on: problem.yaml, the reference library, the test, the data set and the generator.
#include "base/temp_dir.hpp"
#include "runner/protocol.hpp"
#include "runner/session.hpp"
#include "spec/problem_spec.hpp"

#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

// Why a test cannot be judged on this machine, if it cannot: its buffers (held on the host by the
// reference, and again by the judged runner) take more than the machine's memory. Told before any
// reference runs, as "problem.yaml:line: test '...': ...", not as a reference's bad_alloc.
std::optional<std::string> beyond_memory(const problem_spec& spec, const test_spec& test);

class reference_outputs {
public:
    reference_outputs(const problem_spec& spec, const std::filesystem::path& reference_library,
                      const std::filesystem::path& cache_dir, const runner_settings& settings);

    struct item {
        int test = 0;
        data_set_spec data;
        scalar_values scalars;  // the test's inputs with other scalars (a shifted bound); empty: its own
    };
    // The files holding each item's outputs, computing those not on disk (in parallel, in one
    // reference process). Secret items (the variants of timed runs) go to a private folder that
    // goes with this object. Throws problem_error when the reference fails.
    std::vector<std::filesystem::path> ensure(const std::vector<item>& items, bool secret = false);

    // Ends the reference job in progress (its process is killed) and refuses later ones: ensure()
    // throws `cancelled`. For work no longer wanted, such as the timed data of a submission that
    // failed a test. Safe to call from any thread.
    void cancel();
    struct cancelled : std::runtime_error {
        cancelled() : std::runtime_error("reference work cancelled") {}
    };

private:
    std::filesystem::path path_of(const item& entry, bool secret) const;
    void run(const reference_job& job);  // in a reference process of its own

    const problem_spec& spec_;
    std::filesystem::path library_;
    std::filesystem::path cache_dir_;
    runner_settings settings_;
    std::string problem_key_;
    temp_dir secret_dir_;
    std::mutex mutex_;  // one reference process at a time
    std::mutex active_mutex_;
    runner_session* active_ = nullptr;  // the reference process running now
    std::atomic<bool> cancelled_{false};
};

}  // namespace gpujudge
