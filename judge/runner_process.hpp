#pragma once
// The judge's side of a runner: starts it with a job, reads its messages under a deadline.
#include "runner_job.hpp"
#include "subprocess.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

namespace gpujudge {

class runner_process {
public:
    // Writes the job beside `output_file`, then starts `runner_exe` on it.
    runner_process(const std::filesystem::path& runner_exe, const runner_job& job,
                   const std::filesystem::path& work_dir);
    ~runner_process();
    runner_process(const runner_process&) = delete;
    runner_process& operator=(const runner_process&) = delete;

    enum class read_status { message, closed, timeout };
    read_status next(nlohmann::json& message, std::chrono::steady_clock::time_point deadline);

    // After `closed`: the runner's exit. After `timeout`: kills it first.
    child_exit finish(bool kill);
    // The last `max_bytes` of what the runner (the submission included) printed.
    std::string output_tail(std::size_t max_bytes) const;

private:
    std::filesystem::path output_file_;
    int read_fd_ = -1;
    std::string pending_;
    std::unique_ptr<child_process> child_;
};

}  // namespace gpujudge
