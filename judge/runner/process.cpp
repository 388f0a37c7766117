#include "runner/process.hpp"

#include "base/json_text.hpp"
#include "process/process_memory.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace gpujudge {

namespace {

// Longer than any message the runner sends: a longer line is someone else's.
constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

// How long a job line may take to go through: a runner reads the next one as soon as it is idle.
constexpr std::chrono::seconds kSendLimit{30};

}  // namespace

runner_process::runner_process(const std::filesystem::path& runner_exe, hello_job hello,
                               const std::filesystem::path& work_dir, std::size_t outputs_bytes,
                               const std::vector<std::string>& launcher, const std::optional<sandbox_policy>& sandbox,
                               const std::vector<std::pair<std::string, std::string>>& environment)
    : output_file_(work_dir / "runner-output.txt"),
      // A launcher (compute-sanitizer) writes its report after the runner exits, which takes time.
      exit_grace_(launcher.empty() ? 5 : 300),
      key_(channel_key::random()),
      opener_(key_),
      outputs_(shared_outputs::create(outputs_bytes)) {
    int channel[2], control[2];
    if (pipe2(channel, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe");
    if (pipe2(control, O_CLOEXEC) != 0) {
        close(channel[0]);
        close(channel[1]);
        throw std::runtime_error("cannot create a pipe");
    }
    read_fd_ = channel[0];
    control_fd_ = control[1];
    // The judge never blocks on a runner that stops reading: a write that cannot go on waits in
    // poll, under a deadline (see send).
    fcntl(control_fd_, F_SETFL, fcntl(control_fd_, F_GETFL) | O_NONBLOCK);
    try {
        std::vector<std::string> argv = launcher;
        argv.push_back(runner_exe.string());
        spawn_options options{output_file_, channel[1], control[0], outputs_.fd(), {}, sandbox, environment};
        child_ = std::make_unique<child_process>(argv, options);
    } catch (...) {
        close(channel[1]);
        close(control[0]);
        throw;
    }
    close(channel[1]);  // the child holds the only writer now: EOF means it is gone
    close(control[0]);
    // The first line: the key travels nowhere else.
    hello.key = key_.hex();
    send(nlohmann::json(hello), std::chrono::steady_clock::now() + kSendLimit);
}

runner_process::~runner_process() {
    if (read_fd_ >= 0) close(read_fd_);
    if (control_fd_ >= 0) close(control_fd_);
}

bool runner_process::send(const nlohmann::json& line, std::chrono::steady_clock::time_point deadline) {
    if (control_fd_ < 0) return false;
    const std::string text = json_text(line) + "\n";
    // A runner that died must not kill the judge with SIGPIPE.
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = write(control_fd_, text.data() + written, text.size() - written);
        if (n > 0) {
            written += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || errno != EAGAIN) break;
        // The pipe is full: the runner is busy, or the submission holds its control pipe unread.
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd entry{control_fd_, POLLOUT, 0};
        poll(&entry, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    }
    sigaction(SIGPIPE, &previous, nullptr);
    return written == text.size();
}

runner_process::read_status runner_process::next(nlohmann::json& message,
                                                 std::chrono::steady_clock::time_point deadline, int interrupt_fd) {
    for (;;) {
        if (const auto end = pending_.find('\n'); end != std::string::npos) {
            const std::string line = pending_.substr(0, end);
            pending_.erase(0, end + 1);
            auto opened = opener_.open(line);
            if (!opened) return read_status::forged;
            message = std::move(*opened);
            return read_status::message;
        }
        if (pending_.size() > kMaxLineBytes) return read_status::forged;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return read_status::timeout;
        if (output_bytes() > kMaxOutputBytes) return read_status::flooded;
        if (over_memory()) return read_status::over_memory;
        // Awake every 100 ms at least: a runner that prints without a message in between is stopped soon.
        pollfd entries[2] = {{read_fd_, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        const int ready =
            poll(entries, interrupt_fd >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left.count(), 100)));
        if (ready <= 0) continue;
        if (interrupt_fd >= 0 && (entries[1].revents & POLLIN)) return read_status::interrupted;
        if (!(entries[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buffer[65536];
        const ssize_t got = read(read_fd_, buffer, sizeof buffer);
        if (got <= 0) return read_status::closed;
        pending_.append(buffer, static_cast<std::size_t>(got));
    }
}

bool runner_process::over_memory() {
    if (memory_limit_ == 0) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_memory_check_) return false;
    next_memory_check_ = now + kMemoryWatchPeriod;
    peak_memory_ = std::max(peak_memory_, process_tree_memory(pid()));
    return peak_memory_ > memory_limit_;
}

child_exit runner_process::finish(bool kill) {
    if (kill) child_->kill_group();
    // A process that closed its channel is exiting; a GPU context can take a moment to tear down.
    // One that is still running after that, waiting for its next job, has lost its channel.
    child_exit exit = child_->wait(std::chrono::steady_clock::now() + (kill ? std::chrono::seconds(30) : exit_grace_));
    if (control_fd_ >= 0) {
        close(control_fd_);
        control_fd_ = -1;
    }
    sweep_orphans();
    return exit;
}

child_exit runner_process::end(std::optional<std::chrono::steady_clock::time_point> deadline) {
    if (control_fd_ >= 0) {
        close(control_fd_);
        control_fd_ = -1;
    }
    const child_exit exit = child_->wait(deadline.value_or(std::chrono::steady_clock::now() + exit_grace_));
    sweep_orphans();
    return exit;
}

void runner_process::abandon() {
    child_->abandon();
    if (control_fd_ >= 0) {
        close(control_fd_);
        control_fd_ = -1;
    }
}

std::uintmax_t runner_process::output_bytes() const {
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(output_file_, error);
    return error ? 0 : size;
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
