#pragma once
// The judge's side of a runner: starts it with a fresh channel key, sends it jobs, and reads its
// sealed messages under a deadline. A line that fails its seal was not written by the runner.
#include "process/child_process.hpp"
#include "runner/channel.hpp"
#include "runner/protocol.hpp"
#include "runner/shared_outputs.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

class runner_process {
public:
    // Starts `runner_exe` (behind `launcher`, a command prefix such as compute-sanitizer's or ncu's,
    // when not empty; both inside `sandbox` when given, with `environment` set over the judge's)
    // with an outputs window of `outputs_bytes`, and sends it `hello` with the channel's key.
    runner_process(const std::filesystem::path& runner_exe, hello_job hello, const std::filesystem::path& work_dir,
                   std::size_t outputs_bytes, const std::vector<std::string>& launcher = {},
                   const std::optional<sandbox_policy>& sandbox = std::nullopt,
                   const std::vector<std::pair<std::string, std::string>>& environment = {});
    ~runner_process();
    runner_process(const runner_process&) = delete;
    runner_process& operator=(const runner_process&) = delete;

    // Sends one job line; false when the runner no longer reads them, or has not taken the whole
    // line by `deadline` (the control pipe never blocks the judge).
    bool send(const nlohmann::json& job_line, std::chrono::steady_clock::time_point deadline);

    // `forged`: a line on the channel that the runner did not seal (the submission wrote it).
    // `interrupted`: `interrupt_fd` (an eventfd, when >= 0) became readable first.
    // `flooded`: the runner printed more than kMaxOutputBytes (its output file is the judge's disk).
    // `over_memory`: its processes held more host memory than watch_memory's limit.
    enum class read_status { message, closed, timeout, forged, interrupted, flooded, over_memory };
    static constexpr std::uintmax_t kMaxOutputBytes = std::uintmax_t{16} << 20;
    read_status next(nlohmann::json& message, std::chrono::steady_clock::time_point deadline, int interrupt_fd = -1);

    // From now on `next` measures the host memory the runner's processes hold (process_tree_memory)
    // every kMemoryWatchPeriod, and reads `over_memory` past `limit_bytes` (0: no limit). Between
    // two measurements a process can take more: the limit is a bound on what is seen, not a wall.
    void watch_memory(std::uintmax_t limit_bytes) { memory_limit_ = limit_bytes; }
    static constexpr std::chrono::milliseconds kMemoryWatchPeriod{100};
    // The most host memory the runner's processes were seen holding (0 when unwatched).
    std::uintmax_t peak_memory() const { return peak_memory_; }
    std::uintmax_t memory_limit() const { return memory_limit_; }

    // After `closed`: the runner's exit, killing it if it has not exited within a few seconds
    // (closing the channel is not exiting). After anything else: kills it first.
    child_exit finish(bool kill);
    // Closes the control pipe, so that the runner ends as after its last job, and waits for it (and
    // a launcher around it, which writes its report then) until `deadline`, by default as long as an
    // exiting runner may take; kills what is left then.
    child_exit end(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
    // Kills the runner's process group; its channel closes, and `next` reads `closed`.
    void kill() { child_->kill_group(); }
    // Kills the runner without waiting for it to end (see child_process::abandon).
    void abandon();
    int pid() const { return child_->pid(); }
    // Where the runner ships each call's outputs (read them before acknowledging).
    const shared_outputs& outputs() const { return outputs_; }
    // The last `max_bytes` of what the runner (the submission included) printed.
    std::string output_tail(std::size_t max_bytes) const;
    // How many bytes the runner has printed so far (stdout and stderr).
    std::uintmax_t output_bytes() const;

private:
    bool over_memory();

    std::filesystem::path output_file_;
    std::chrono::seconds exit_grace_;  // how long an exiting runner may take to end
    int read_fd_ = -1;
    int control_fd_ = -1;
    std::string pending_;
    channel_key key_;
    message_opener opener_;
    shared_outputs outputs_;
    std::unique_ptr<child_process> child_;
    std::uintmax_t memory_limit_ = 0;
    std::uintmax_t peak_memory_ = 0;
    std::chrono::steady_clock::time_point next_memory_check_{};
};

}  // namespace gpujudge
