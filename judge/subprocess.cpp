#include "subprocess.hpp"

#include "file_text.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace gpujudge {

namespace {

std::mutex g_children_mutex;
std::set<int> g_children;   // processes the judge started and still waits for
std::set<int> g_abandoned;  // killed, not waited for: reaped by the next sweep that finds them gone

// Children are added under the lock that spans their spawn (see child_process), so that
// sweep_orphans never sees one before it is known.
void untrack(int pid) {
    std::lock_guard<std::mutex> lock(g_children_mutex);
    g_children.erase(pid);
}

}  // namespace

std::string child_exit::describe() const {
    if (timed_out) return "killed after its time limit";
    if (signaled)
        return fmt::format("signal {} ({})",
                           sigabbrev_np(signal) ? fmt::format("SIG{}", sigabbrev_np(signal)) : std::to_string(signal),
                           strsignal(signal));
    return fmt::format("exit status {}", code);
}

child_process::child_process(const std::vector<std::string>& argv, const spawn_options& options) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    const std::string output = options.output_file.empty() ? "/dev/null" : options.output_file.string();
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (options.channel_fd >= 0) posix_spawn_file_actions_adddup2(&actions, options.channel_fd, 3);
    if (options.control_fd >= 0) posix_spawn_file_actions_adddup2(&actions, options.control_fd, 4);
    if (options.outputs_fd >= 0) posix_spawn_file_actions_adddup2(&actions, options.outputs_fd, 5);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);  // a group of its own, to kill it whole

    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    std::lock_guard<std::mutex> lock(g_children_mutex);
    const int error = posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(error)));
    g_children.insert(pid_);
}

child_process::~child_process() {
    if (!reaped_) {
        kill_group();
        wait();
    }
}

void child_process::kill_group() {
    if (pid_ > 0) ::kill(-pid_, SIGKILL);
}

child_exit child_process::wait(std::optional<std::chrono::steady_clock::time_point> deadline) {
    if (reaped_) return exit_;
    int status = 0;
    for (;;) {
        const int r = waitpid(pid_, &status, deadline ? WNOHANG : 0);
        if (r == pid_) break;
        if (r < 0 && errno != EINTR) break;
        if (deadline && std::chrono::steady_clock::now() >= *deadline) {
            exit_.timed_out = true;
            kill_group();
            waitpid(pid_, &status, 0);
            break;
        }
        if (deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    reaped_ = true;
    untrack(pid_);
    if (!exit_.timed_out) {
        exit_.signaled = WIFSIGNALED(status);
        exit_.signal = exit_.signaled ? WTERMSIG(status) : 0;
        exit_.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    kill_group();  // whatever the child left running in its group
    return exit_;
}

command_result run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
    char path[] = "/tmp/gpujudge-command-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    close(fd);
    command_result result;
    {
        child_process child(argv, {path, -1});
        result.exit = child.wait(std::chrono::steady_clock::now() + timeout);
    }
    result.output = read_file_text(path).value_or("");
    std::remove(path);
    return result;
}

void become_subreaper() {
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

std::vector<int> children_of(int parent) {
    std::vector<int> children;
    DIR* proc = opendir("/proc");
    if (!proc) return children;
    while (dirent* entry = readdir(proc)) {
        const int pid = std::atoi(entry->d_name);
        if (pid <= 0) continue;
        std::ifstream stat(fmt::format("/proc/{}/stat", pid));
        std::string line;
        if (!std::getline(stat, line)) continue;
        // Fields after the command name, which sits in parentheses and may hold spaces.
        std::istringstream rest(line.substr(line.rfind(')') + 2));
        char state;
        int ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent) children.push_back(pid);
    }
    closedir(proc);
    return children;
}

void child_process::abandon() {
    if (reaped_) return;
    kill_group();
    std::lock_guard<std::mutex> lock(g_children_mutex);
    g_abandoned.insert(pid_);
    reaped_ = true;
}

void sweep_orphans() {
    const std::vector<int> orphans = children_of(getpid());
    std::lock_guard<std::mutex> lock(g_children_mutex);
    for (auto it = g_abandoned.begin(); it != g_abandoned.end();) {
        if (waitpid(*it, nullptr, WNOHANG) == 0) {
            ++it;
            continue;
        }
        g_children.erase(*it);
        it = g_abandoned.erase(it);
    }
    for (const int pid : orphans) {
        if (g_children.count(pid)) continue;
        ::kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
}

std::optional<std::filesystem::path> find_program(const std::string& program,
                                                  const std::vector<std::filesystem::path>& then) {
    std::vector<std::filesystem::path> dirs;
    const char* path = std::getenv("PATH");
    std::istringstream entries(path ? path : "");
    for (std::string dir; std::getline(entries, dir, ':');) dirs.push_back(dir.empty() ? "." : dir);
    dirs.insert(dirs.end(), then.begin(), then.end());
    for (const auto& dir : dirs) {
        const std::filesystem::path candidate = dir / program;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) && access(candidate.c_str(), X_OK) == 0)
            return std::filesystem::absolute(candidate);
    }
    return std::nullopt;
}

}  // namespace gpujudge
