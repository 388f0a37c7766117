#include "runner_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>

namespace gpujudge {

runner_process::runner_process(const std::filesystem::path& runner_exe, const runner_job& job,
                               const std::filesystem::path& work_dir)
    : output_file_(work_dir / "runner-output.txt") {
    const auto job_file = work_dir / "job.json";
    std::ofstream(job_file) << nlohmann::json(job).dump();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe");
    read_fd_ = fds[0];
    try {
        child_ = std::make_unique<child_process>(std::vector<std::string>{runner_exe.string(), job_file.string()},
                                                 spawn_options{output_file_, fds[1]});
    } catch (...) {
        close(fds[1]);
        throw;
    }
    close(fds[1]);  // the child holds the only writer now: EOF means it is gone
}

runner_process::~runner_process() {
    if (read_fd_ >= 0) close(read_fd_);
}

runner_process::read_status runner_process::next(nlohmann::json& message,
                                                 std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        if (const auto end = pending_.find('\n'); end != std::string::npos) {
            const std::string line = pending_.substr(0, end);
            pending_.erase(0, end + 1);
            message = nlohmann::json::parse(line, nullptr, false);
            if (message.is_discarded() || !message.is_object()) continue;  // not ours: ignore
            return read_status::message;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return read_status::timeout;
        pollfd entry{read_fd_, POLLIN, 0};
        const int ready = poll(&entry, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t got = read(read_fd_, buffer, sizeof buffer);
        if (got <= 0) return read_status::closed;
        pending_.append(buffer, static_cast<std::size_t>(got));
    }
}

child_exit runner_process::finish(bool kill) {
    if (kill) child_->kill_group();
    // A process that closed its channel is exiting; a GPU context can take a moment to tear down.
    child_exit exit = child_->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
    sweep_orphans();
    return exit;
}

std::string runner_process::output_tail(std::size_t max_bytes) const {
    std::ifstream file(output_file_, std::ios::binary | std::ios::ate);
    if (!file) return {};
    const auto size = static_cast<std::size_t>(file.tellg());
    const std::size_t start = size > max_bytes ? size - max_bytes : 0;
    file.seekg(static_cast<std::streamoff>(start));
    std::string text(size - start, '\0');
    file.read(text.data(), static_cast<std::streamsize>(text.size()));
    return text;
}

}  // namespace gpujudge
