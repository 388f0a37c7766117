#include "process/child_process.hpp"

#include "base/file_text.hpp"
#include "base/temp_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace gpujudge {

namespace {

std::mutex g_children_mutex;
std::set<int> g_children;   // processes the judge started and still waits for
std::set<int> g_abandoned;  // killed, reaped by a thread of their own (see abandon)

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

namespace {

constexpr int kSeccompFd = 6;    // where bwrap reads the seccomp filter in the child (5 is the outputs window)
constexpr int kUserInfoFd = 7;   // where bwrap writes its child's pid, for a sandbox's user (map_sandbox_user)
constexpr int kUserBlockFd = 8;  // where bwrap waits for that user's maps

// A pipe's two ends (or a socket pair's: a write to it can be sent without SIGPIPE, were its reader
// gone), closed when gone, each at most once.
struct pipe_ends {
    int read = -1, write = -1;
    explicit pipe_ends(bool socket = false) {
        int fds[2];
        if ((socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) : pipe2(fds, O_CLOEXEC)) != 0)
            throw std::runtime_error(
                fmt::format("cannot create a {}: {}", socket ? "socket pair" : "pipe", std::strerror(errno)));
        read = fds[0];
        write = fds[1];
    }
    pipe_ends(const pipe_ends&) = delete;
    pipe_ends& operator=(const pipe_ends&) = delete;
    ~pipe_ends() {
        for (int* fd : {&read, &write}) close_end(*fd);
    }
    static void close_end(int& fd) {
        if (fd >= 0) close(fd);
        fd = -1;
    }
};

// In the child, between fork and exec: every descriptor but 0 to 2 and the moves' is closed at exec.
// What the judge inherited (a grading script's open log, a file a CI agent holds) must not reach the
// sandbox: a red team's solve read a root-only file and wrote to another through them.
void close_the_rest(const std::vector<std::pair<int, int>>& moves) {
    constexpr int kHighestMove = kUserBlockFd;
    for (int fd = 3; fd <= kHighestMove; ++fd)
        if (std::none_of(moves.begin(), moves.end(), [fd](const auto& move) { return move.second == fd; }))
            fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (syscall(SYS_close_range, kHighestMove + 1, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
    rlimit files{};  // before Linux 5.11
    const int last =
        getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? static_cast<int>(files.rlim_cur) : 65536;
    for (int fd = kHighestMove + 1; fd < last; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
}

// In the child, between fork and exec: only async-signal-safe calls. Moves each descriptor to its
// number (out of the way first, so that one move cannot overwrite another's source), sets the
// limits, and starts the program; on failure writes errno to `error_fd` and exits.
[[noreturn]] void exec_child(const char* program, char* const* args, char* const* environment, const char* output,
                             const std::vector<std::pair<int, int>>& moves, const resource_limits& limits,
                             int error_fd) {
    setpgid(0, 0);  // a group of its own, to kill it whole
    int fail = 0;
    int staged[8];
    std::size_t count = 0;
    for (const auto& [from, to] : moves) staged[count++] = fcntl(from, F_DUPFD_CLOEXEC, 16);
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) fail = errno;
    for (std::size_t i = 0; i < count && !fail; ++i)
        if (staged[i] < 0 || dup2(staged[i], moves[i].second) < 0) fail = errno;  // dup2 clears FD_CLOEXEC
    close_the_rest(moves);
    // Never above the hard limit the judge itself runs under (`ulimit -v` on a login node, a Slurm
    // job's): raising it is refused, and the lower limit holds anyway.
    const auto capped = [](int resource, rlim_t value) {
        rlimit current{};
        return getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY
                   ? std::min(value, current.rlim_max)
                   : value;
    };
    const auto set = [&](int resource, rlim_t value) {
        const rlimit limit{capped(resource, value), capped(resource, value)};
        if (!fail && setrlimit(resource, &limit) != 0) fail = errno;
    };
    if (limits.cpu_seconds) {  // soft: SIGXCPU, which names the limit; hard a second later: SIGKILL
        const rlimit limit{capped(RLIMIT_CPU, limits.cpu_seconds), capped(RLIMIT_CPU, limits.cpu_seconds + 1)};
        if (!fail && setrlimit(RLIMIT_CPU, &limit) != 0) fail = errno;
    }
    if (limits.file_bytes) set(RLIMIT_FSIZE, limits.file_bytes);
    if (limits.address_bytes) set(RLIMIT_AS, limits.address_bytes);
    if (limits.open_files) set(RLIMIT_NOFILE, limits.open_files);
    if (limits.no_core) set(RLIMIT_CORE, 0);
    // Default dispositions: an ignored SIGPIPE or SIGXFSZ would be inherited across exec.
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    signal(SIGXCPU, SIG_DFL);
    sigset_t none;  // the judge blocks its stop signals in every thread (stop_signals.hpp): not here
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!fail) execve(program, args, environment);
    if (!fail) fail = errno;
    [[maybe_unused]] const auto written = write(error_fd, &fail, sizeof fail);
    _exit(127);
}

// The judge's side of a sandbox user's start (map_sandbox_user): on failure the child is ended and
// reaped, and the error says what bwrap printed, if anything.
void map_user(child_process& child, pipe_ends& info, pipe_ends& block, const spawn_options& options) {
    pipe_ends::close_end(info.write);
    pipe_ends::close_end(block.read);
    try {
        map_sandbox_user(info.read, block.write, *options.sandbox->user);
    } catch (const std::exception& error) {
        child.kill_group();
        child.wait();
        std::string said =
            without_trailing_space(options.output_file.empty() ? "" : read_file_text(options.output_file).value_or(""));
        if (said.size() > 400) said = "..." + said.substr(said.size() - 400);
        throw std::runtime_error(said.empty() ? error.what() : fmt::format("{} (bwrap: {})", error.what(), said));
    }
}

}  // namespace

child_process::child_process(const std::vector<std::string>& argv, const spawn_options& options) {
    std::vector<std::string> command = argv;
    std::vector<std::string> environment;
    for (char** variable = environ; *variable; ++variable) environment.emplace_back(*variable);
    resource_limits limits = options.limits;
    int seccomp_fd = -1;
    struct closer {
        int& fd;
        ~closer() {
            if (fd >= 0) close(fd);
        }
    } close_seccomp{seccomp_fd};
    if (options.sandbox) {
        const auto bwrap = find_bwrap();
        if (!bwrap) throw std::runtime_error(fmt::format("cannot start {}: bwrap not found", argv[0]));
        seccomp_fd = seccomp_filter_fd(options.sandbox->launcher_tool);
        sandbox_policy policy = *options.sandbox;
        policy.environment.insert(policy.environment.end(), options.environment.begin(), options.environment.end());
        command = sandbox_argv(*bwrap, policy, {kSeccompFd, kUserInfoFd, kUserBlockFd}, argv);
        environment = bwrap_environment(*bwrap);
        const resource_limits inside = sandbox_limits(*options.sandbox);
        for (auto [mine, theirs] : {std::pair<rlim_t*, rlim_t>{&limits.cpu_seconds, inside.cpu_seconds},
                                    {&limits.file_bytes, inside.file_bytes},
                                    {&limits.address_bytes, inside.address_bytes},
                                    {&limits.open_files, inside.open_files}})
            if (theirs && (!*mine || theirs < *mine)) *mine = theirs;
        limits.no_core = limits.no_core || inside.no_core;
    } else {
        for (const auto& [name, value] : options.environment) {
            const std::string prefix = name + "=";
            environment.erase(std::remove_if(environment.begin(), environment.end(),
                                             [&](const std::string& entry) { return entry.rfind(prefix, 0) == 0; }),
                              environment.end());
            environment.push_back(prefix + value);
        }
    }
    // The program, as posix_spawnp finds it: a name without a slash is looked for on PATH.
    std::string program = command.front();
    if (program.find('/') == std::string::npos) {
        const auto found = find_program(program);
        if (!found) throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(ENOENT)));
        program = found->string();
    }
    const std::string output = options.output_file.empty() ? "/dev/null" : options.output_file.string();
    std::vector<std::pair<int, int>> moves;
    if (options.channel_fd >= 0) moves.emplace_back(options.channel_fd, 3);
    if (options.control_fd >= 0) moves.emplace_back(options.control_fd, 4);
    if (options.outputs_fd >= 0) moves.emplace_back(options.outputs_fd, 5);
    if (seccomp_fd >= 0) moves.emplace_back(seccomp_fd, kSeccompFd);
    std::optional<pipe_ends> user_info, user_block;
    if (options.sandbox && options.sandbox->user) {
        user_info.emplace();
        user_block.emplace(true);
        moves.emplace_back(user_info->write, kUserInfoFd);
        moves.emplace_back(user_block->read, kUserBlockFd);
    }
    std::vector<char*> args, env;
    for (auto& arg : command) args.push_back(arg.data());
    args.push_back(nullptr);
    for (auto& entry : environment) env.push_back(entry.data());
    env.push_back(nullptr);
    start(argv.front(), program, args, env, output, moves, limits);
    sandboxed_ = options.sandbox.has_value();
    output_file_ = options.output_file;
    output_limit_bytes_ = options.output_limit_bytes;
    // Outside the spawn's lock: bwrap takes a moment to say which process to map.
    if (user_info) map_user(*this, *user_info, *user_block, options);
}

void child_process::start(const std::string& name, const std::string& program, std::vector<char*>& args,
                          std::vector<char*>& env, const std::string& output,
                          const std::vector<std::pair<int, int>>& moves, const resource_limits& limits) {
    int errors[2];
    if (pipe2(errors, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe");
    std::lock_guard<std::mutex> lock(g_children_mutex);
    pid_ = fork();
    if (pid_ == 0) exec_child(program.c_str(), args.data(), env.data(), output.c_str(), moves, limits, errors[1]);
    close(errors[1]);
    if (pid_ < 0) {
        close(errors[0]);
        throw std::runtime_error(fmt::format("cannot start {}: {}", name, std::strerror(errno)));
    }
    setpgid(pid_, pid_);  // also here: a kill of the group right after must not miss it
    int error = 0;
    ssize_t got;
    do got = read(errors[0], &error, sizeof error);
    while (got < 0 && errno == EINTR);
    close(errors[0]);
    if (got == sizeof error) {  // the program did not start: the child has exited
        waitpid(pid_, nullptr, 0);
        throw std::runtime_error(fmt::format("cannot start {}: {}", name, std::strerror(error)));
    }
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

bool child_process::flooding() const {
    std::error_code error;
    return output_limit_bytes_ > 0 && std::filesystem::file_size(output_file_, error) > output_limit_bytes_ && !error;
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
        if (deadline && flooding()) {
            exit_.flooded = true;
            kill_group();
            waitpid(pid_, &status, 0);
            break;
        }
        if (deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    reaped_ = true;
    untrack(pid_);
    if (!exit_.timed_out && !exit_.flooded) {
        exit_.signaled = WIFSIGNALED(status);
        exit_.signal = exit_.signaled ? WTERMSIG(status) : 0;
        exit_.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        // bwrap reports a command killed by signal N as exit status 128 + N (it cannot die of the
        // signal itself): read it back as the signal. An exit(139) in the sandbox reads as SIGSEGV,
        // a runtime error either way.
        if (sandboxed_ && !exit_.signaled && exit_.code > 128 && exit_.code <= 128 + SIGRTMAX) {
            exit_.signaled = true;
            exit_.signal = exit_.code - 128;
            exit_.code = -1;
        }
    }
    kill_group();  // whatever the child left running in its group
    return exit_;
}

command_result run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                           const spawn_options& options) {
    const temp_dir folder("command");
    const std::filesystem::path path = folder.path() / "output.txt";
    command_result result;
    {
        spawn_options spawn = options;
        spawn.output_file = path;
        spawn.channel_fd = spawn.control_fd = spawn.outputs_fd = -1;
        child_process child(argv, spawn);
        result.exit = child.wait(std::chrono::steady_clock::now() + timeout);
    }
    result.output = read_file_text(path).value_or("");
    return result;
}

void become_subreaper() {
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

namespace {

// The processes whose parent is `parent`, with their state letter ('Z': ended, not yet reaped).
std::vector<std::pair<int, char>> children_with_state(int parent) {
    std::vector<std::pair<int, char>> children;
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
        if (ppid == parent) children.emplace_back(pid, state);
    }
    closedir(proc);
    return children;
}

}  // namespace

std::string without_trailing_space(std::string output) {
    while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
    return output;
}

std::vector<int> children_of(int parent) {
    std::vector<int> children;
    for (const auto& [pid, state] : children_with_state(parent)) children.push_back(pid);
    return children;
}

void child_process::abandon() {
    if (reaped_) return;
    kill_group();
    {
        std::lock_guard<std::mutex> lock(g_children_mutex);
        g_abandoned.insert(pid_);
    }
    reaped_ = true;
    // Reaped as soon as the kernel has torn it down, by a thread of its own: no zombie stays behind
    // until some later sweep. Only this thread waits for it (sweep_orphans leaves it alone), so a
    // new child that reuses the number cannot be reaped by mistake.
    std::thread([pid = pid_] {
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        std::lock_guard<std::mutex> lock(g_children_mutex);
        g_abandoned.erase(pid);
        g_children.erase(pid);
    }).detach();
}

void kill_children_for_good() {
    g_children_mutex.lock();  // never unlocked: no child starts after this
    for (const int pid : g_children) ::kill(-pid, SIGKILL);
    // Then orphans reparented to the judge and the abandoned, until every child has ended (a GPU
    // process takes the kernel a moment to tear down): when the judge is seen to end, none runs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
        bool running = false;
        for (const auto& [pid, state] : children_with_state(getpid()))
            if (state != 'Z') running = ::kill(pid, SIGKILL) == 0 || running;
        if (!running || std::chrono::steady_clock::now() > deadline) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void sweep_orphans() {
    const std::vector<int> orphans = children_of(getpid());
    std::lock_guard<std::mutex> lock(g_children_mutex);
    for (const int pid : orphans) {
        if (g_children.count(pid) || g_abandoned.count(pid)) continue;
        ::kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
}

std::vector<std::filesystem::path> path_folders(const std::string& value) {
    std::vector<std::filesystem::path> dirs;
    std::istringstream entries(value);
    for (std::string dir; std::getline(entries, dir, ':');) dirs.push_back(dir.empty() ? "." : dir);
    return dirs;
}

std::optional<std::filesystem::path> find_in_folders(const std::string& program,
                                                     const std::vector<std::filesystem::path>& folders) {
    for (const auto& dir : folders) {
        const std::filesystem::path candidate = dir / program;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) && access(candidate.c_str(), X_OK) == 0)
            return std::filesystem::absolute(candidate);
    }
    return std::nullopt;
}

std::optional<std::filesystem::path> find_program(const std::string& program) {
    const char* path = std::getenv("PATH");
    return find_in_folders(program, path_folders(path ? path : ""));
}

}  // namespace gpujudge
