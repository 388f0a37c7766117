#include "process/sandbox.hpp"

#include "base/file_text.hpp"
#include "base/user_errors.hpp"
#include "process/child_process.hpp"
#include "process/nvidia_gpus.hpp"
#include "process/seccomp_filter.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace gpujudge {

namespace {

std::filesystem::path own_folder() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self.parent_path();
}

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

// The names of the judge's environment variables that reach the sandbox: what CUDA and its tools
// read, and those the policy or $GPUJUDGE_SANDBOX_ENV names.
bool kept_variable(const std::string& name, const std::vector<std::string>& keep) {
    if (name == "PATH" || name == "LD_LIBRARY_PATH" || starts_with(name, "CUDA_") || starts_with(name, "NVIDIA_"))
        return true;
    for (const auto& kept : keep)
        if (name == kept) return true;
    if (const char* extra = std::getenv("GPUJUDGE_SANDBOX_ENV")) {
        std::istringstream names(extra);
        for (std::string kept; std::getline(names, kept, ',');)
            if (name == kept) return true;
    }
    return false;
}

// Whether the policy sets `name` itself (over the judge's value).
bool set_by(const sandbox_policy& policy, const std::string& name) {
    return std::any_of(policy.environment.begin(), policy.environment.end(),
                       [&](const auto& variable) { return variable.first == name; });
}

// A folder's path without "." or ".." and without a trailing slash, for comparing and counting.
std::filesystem::path plain(const std::filesystem::path& path) {
    const auto normal = path.lexically_normal();
    return normal.has_filename() || normal == normal.root_path() ? normal : normal.parent_path();
}

std::size_t depth(const std::filesystem::path& path) {
    const auto relative = plain(path).relative_path();
    return static_cast<std::size_t>(std::distance(relative.begin(), relative.end()));
}

// Where the folder `path` (resolved) shows in the sandbox through `bind`, if it lies inside it.
std::optional<std::filesystem::path> seen_through(const std::filesystem::path& path, const sandbox_bind& bind) {
    std::error_code error;
    const auto relative = path.lexically_relative(std::filesystem::weakly_canonical(bind.source, error));
    if (error || relative.empty() || *relative.begin() == "..") return std::nullopt;
    return plain((bind.target.empty() ? bind.source : bind.target) / relative);
}

// `--dir` for each folder above `target` that bwrap has not made yet. bwrap 0.8 makes a bind's
// missing parents 0700 (its bind options leave their mode at 0), which only their owner, root, could
// cross: not the sandbox's user (run_as_submission_user).
void add_open_parents(std::vector<std::string>& argv, const std::filesystem::path& target,
                      std::set<std::filesystem::path>& made) {
    std::filesystem::path parent = target.root_path();
    const auto folders = plain(target).relative_path().parent_path();
    for (const auto& part : folders) {
        parent /= part;
        if (made.insert(parent).second) argv.insert(argv.end(), {"--dir", parent.string()});
    }
    made.insert(plain(target));
}

// The policy's binds, then an empty tmpfs wherever a bind (the system's included) shows a hidden
// folder; parents first, so that a folder bound inside a hidden one is mounted over its tmpfs.
// Where the bound tree shows it, not through a link: bwrap cannot follow a link in a bind.
std::vector<std::string> policy_mounts(const sandbox_policy& policy, const std::vector<sandbox_bind>& system) {
    struct mount {
        std::filesystem::path at;
        std::vector<std::string> args;
    };
    std::vector<mount> mounts;
    std::vector<sandbox_bind> shown = system;
    const auto add_binds = [&](const std::vector<sandbox_bind>& binds, const char* option) {
        for (const auto& bind : binds) {
            const auto target = bind.target.empty() ? bind.source : bind.target;
            mounts.push_back({target, {option, bind.source.string(), target.string()}});
            shown.push_back(bind);
        }
    };
    add_binds(policy.read_only, "--ro-bind");
    add_binds(policy.writable, "--bind");
    std::vector<std::filesystem::path> covered;
    for (const auto& folder : policy.hidden) {
        std::error_code error;
        if (!std::filesystem::is_directory(folder, error)) continue;  // nothing there to show
        const auto resolved = std::filesystem::weakly_canonical(folder, error);
        for (const auto& bind : shown) {
            const auto at = error ? std::nullopt : seen_through(resolved, bind);
            if (!at || std::find(covered.begin(), covered.end(), *at) != covered.end()) continue;
            covered.push_back(*at);
            mounts.push_back({*at, {"--size", "4096", "--tmpfs", at->string()}});
        }
    }
    std::stable_sort(mounts.begin(), mounts.end(),
                     [](const mount& a, const mount& b) { return depth(a.at) < depth(b.at); });
    std::vector<std::string> argv;
    std::set<std::filesystem::path> made;
    for (const auto& each : mounts) {
        add_open_parents(argv, each.at, made);
        argv.insert(argv.end(), each.args.begin(), each.args.end());
    }
    return argv;
}

// The entries of `dir` and below that others may not read, into `found` (a folder whole, not walked
// further). An entry that cannot be looked at (gone meanwhile) is passed over, never the walk's end.
void add_private_entries(const std::filesystem::path& dir, std::vector<std::filesystem::path>& found) {
    namespace fs = std::filesystem;
    constexpr auto others_rx = fs::perms::others_read | fs::perms::others_exec;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        std::error_code entry_error;
        const auto status = it->symlink_status(entry_error);
        if (entry_error) continue;
        if (fs::is_directory(status)) {
            if ((status.permissions() & others_rx) != others_rx)
                found.push_back(it->path());
            else
                add_private_entries(it->path(), found);
        } else if (fs::is_regular_file(status) && (status.permissions() & fs::perms::others_read) == fs::perms::none) {
            found.push_back(it->path());
        }
    }
}

// The entries under the bound /etc and /opt that others may not read (/etc/shadow, /etc/ssl/private,
// /etc/munge/munge.key), found once per process. The sandbox of a judge run as root is root too,
// whom the owner's bits let read them: each is covered there.
const std::vector<std::filesystem::path>& private_system_entries() {
    static const std::vector<std::filesystem::path> entries = [] {
        std::vector<std::filesystem::path> found;
        for (const char* top : {"/etc", "/opt"}) add_private_entries(top, found);
        return found;
    }();
    return entries;
}

// For a judge run as root: no capabilities in the sandbox (a policy's user adds the shim's three: see
// sandbox_argv), and the system's private entries covered (an empty read-only file, an empty
// folder), after every other mount. An entry holding one of the
// policy's binds stays: the judge bound what lies inside it on purpose.
std::vector<std::string> root_covers(const sandbox_policy& policy) {
    if (geteuid() != 0) return {};
    std::vector<std::string> argv{"--cap-drop", "ALL"};
    const auto holds_a_bind = [&](const std::filesystem::path& entry) {
        for (const auto* binds : {&policy.read_only, &policy.writable})
            for (const auto& bind : *binds) {
                const auto target = (bind.target.empty() ? bind.source : bind.target).lexically_normal().string();
                const auto prefix = entry.string() + "/";
                if (target == entry.string() || target.compare(0, prefix.size(), prefix) == 0) return true;
            }
        return false;
    };
    for (const auto& entry : private_system_entries()) {
        if (holds_a_bind(entry)) continue;
        std::error_code error;
        if (std::filesystem::is_directory(std::filesystem::symlink_status(entry, error)))
            argv.insert(argv.end(), {"--size", "4096", "--tmpfs", entry.string(), "--remount-ro", entry.string()});
        else
            argv.insert(argv.end(), {"--ro-bind", "/dev/null", entry.string()});
    }
    return argv;
}

}  // namespace

resource_limits sandbox_limits(const sandbox_policy& policy) {
    resource_limits limits = policy.limits;
    limits.file_bytes = policy.scratch_bytes;
    return limits;
}

std::optional<std::filesystem::path> find_bwrap() {
    const auto here = own_folder();
    if (!here.empty())
        for (const auto& candidate : {here / "bwrap", here / ".." / "lib" / "bwrap"})
            if (std::filesystem::is_regular_file(candidate) && access(candidate.c_str(), X_OK) == 0)
                return std::filesystem::weakly_canonical(candidate);
    return find_program("bwrap");
}

namespace {

// Leases and signal-driven I/O. A write lease needs only a descriptor and the file's owner, who is the
// judge's user inside the sandbox too: a red team's solve leased the problem's files, a cached library
// and (as root) files of /usr, and every open of them on the machine waited 45 s while the judge's
// reads failed. A pipe set to signal its owner (F_SETOWN, F_SETSIG, O_ASYNC) made the kernel send the
// runner SIGSTOP when the judge wrote to it, which the rules on kill() cannot see.
void deny_leases_and_io_signals(seccomp_filter& filter, std::uint32_t deny) {
    for (const int command : {F_SETLEASE, F_NOTIFY, F_SETSIG, F_SETOWN, F_SETOWN_EX})
        filter.add_rule(deny, SCMP_SYS(fcntl), "fcntl", {int_argument_is(1, static_cast<std::uint64_t>(command))});
    filter.add_rule(deny, SCMP_SYS(fcntl), "fcntl",
                    {int_argument_is(1, F_SETFL), SCMP_A2(SCMP_CMP_MASKED_EQ, O_ASYNC, O_ASYNC)});
    for (const unsigned long request : {FIOASYNC, FIOSETOWN, SIOCSPGRP})
        filter.add_rule(deny, SCMP_SYS(ioctl), "ioctl", {int_argument_is(1, request)});
}

// What holds memory or counters the kernel keeps outside every process, refused but for a launcher's
// tool (ncu's libraries import shmget). A System V segment filled and detached, a set of 32000
// semaphores (2 MiB of the kernel's) or 3.3 GB queued in socket pairs raised past their default buffer
// (a red team's) is in no process, so no measure of the submission's processes sees it; POSIX message
// queues and inotify instances are counted per user across the machine (a red team's solve took all
// 128 of its user's). And POSIX timers: a timer's signal can be SIGSTOP, past the rules on kill().
void deny_beyond_the_processes(seccomp_filter& filter, std::uint32_t deny) {
    filter.add_rules(deny, {"shmget", "msgget", "semget", "mq_open", "inotify_init", "inotify_init1", "fanotify_init",
                            "timer_create"});
    for (const int option : {SO_SNDBUF, SO_RCVBUF, SO_SNDBUFFORCE, SO_RCVBUFFORCE})
        filter.add_rule(deny, SCMP_SYS(setsockopt), "setsockopt",
                        {int_argument_is(1, SOL_SOCKET), int_argument_is(2, static_cast<std::uint64_t>(option))});
    filter.add_rule(deny, SCMP_SYS(fcntl), "fcntl", {int_argument_is(1, F_SETPIPE_SZ)});
}

}  // namespace

int seccomp_filter_fd(bool launcher_tool) {
    seccomp_filter filter;
    const std::uint32_t deny = SCMP_ACT_ERRNO(EPERM);
    // Another process's memory, the kernel's mounts and namespaces, the kernel itself. perf_event_open
    // stays allowed: Nsight Compute (ncu) runs in the sandbox, in front of the runner.
    filter.add_rules(deny, {"ptrace",
                            "process_vm_readv",
                            "process_vm_writev",
                            "mount",
                            "umount",
                            "umount2",
                            "pivot_root",
                            "chroot",
                            "setns",
                            "unshare",
                            "bpf",
                            "keyctl",
                            "add_key",
                            "request_key",
                            "kexec_load",
                            "kexec_file_load",
                            "init_module",
                            "finit_module",
                            "delete_module",
                            "userfaultfd",
                            "reboot",
                            "swapon",
                            "swapoff",
                            "open_by_handle_at",
                            "name_to_handle_at",
                            "fsopen",
                            "fsmount",
                            "fsconfig",
                            "move_mount",
                            "open_tree",
                            "mount_setattr",
                            "acct",
                            "settimeofday",
                            "clock_settime",
                            "adjtimex",
                            "clock_adjtime",
                            "iopl",
                            "ioperm",
                            "lookup_dcookie",
                            "quotactl",
                            "nfsservctl",
                            "vhangup"});
    // New namespaces through clone: its flags are an argument that a filter can read. clone3 passes
    // them in memory, which it cannot: ENOSYS makes glibc fall back to clone.
    for (const unsigned long flag :
         {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP})
        filter.add_rule(deny, SCMP_SYS(clone), "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)});
    filter.add_rule(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), "clone3");
    // Stop signals: a child of solve that stops its runner between jobs, where no call's limit runs, holds
    // the judge (a grade's worker) for its whole idle allowance. Nothing a submission does needs one.
    for (const int signal : {SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU}) {
        const auto is = [signal](unsigned arg) { return int_argument_is(arg, static_cast<std::uint64_t>(signal)); };
        filter.add_rule(deny, SCMP_SYS(kill), "kill", {is(1)});
        filter.add_rule(deny, SCMP_SYS(tkill), "tkill", {is(1)});
        filter.add_rule(deny, SCMP_SYS(tgkill), "tgkill", {is(2)});
        filter.add_rule(deny, SCMP_SYS(rt_sigqueueinfo), "rt_sigqueueinfo", {is(1)});
        filter.add_rule(deny, SCMP_SYS(rt_tgsigqueueinfo), "rt_tgsigqueueinfo", {is(2)});
        filter.add_rule(deny, SCMP_SYS(pidfd_send_signal), "pidfd_send_signal", {is(1)});
        // A child whose exit signal (clone's low byte) is a stop signal stops its parent as it ends.
        filter.add_rule(deny, SCMP_SYS(clone), "clone",
                        {SCMP_A0(SCMP_CMP_MASKED_EQ, 0xff, static_cast<scmp_datum_t>(signal))});
    }
    if (!launcher_tool) deny_beyond_the_processes(filter, deny);
    deny_leases_and_io_signals(filter, deny);
    // Raw packets (the namespace has no network, but a packet socket needs none to exist).
    filter.add_rule(deny, SCMP_SYS(socket), "socket", {int_argument_is(0, AF_PACKET)});
    const int fd = memfd_create("gpujudge-seccomp", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error(fmt::format("memfd_create: {}", std::strerror(errno)));
    if (const int error = seccomp_export_bpf(filter.get(), fd); error != 0) {
        close(fd);
        throw std::runtime_error(fmt::format("libseccomp cannot export its filter: {}", std::strerror(-error)));
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

std::vector<std::string> sandbox_argv(const std::filesystem::path& bwrap, const sandbox_policy& policy,
                                      const sandbox_fds& fds, const std::vector<std::string>& command) {
    std::vector<std::string> argv{
        bwrap.string(), "--unshare-all", "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev"};
    // A user namespace whose maps the judge writes (map_sandbox_user): bwrap waits for them.
    if (policy.user)
        argv.insert(argv.end(), {"--unshare-user", "--userns-block-fd", std::to_string(fds.block), "--info-fd",
                                 std::to_string(fds.info)});
    std::error_code error;
    // The GPU: /dev/nvidia0... (or the policy's one), nvidiactl, nvidia-uvm, nvidia-caps/ (MIG), and /dev/dri.
    for (const auto& node : nvidia_device_nodes("/dev", policy.gpu_minor))
        argv.insert(argv.end(), {"--dev-bind", node.string(), node.string()});
    if (std::filesystem::exists("/dev/dri", error)) argv.insert(argv.end(), {"--dev-bind", "/dev/dri", "/dev/dri"});
    // --dev's /dev is a tmpfs of half the machine's memory, /dev/shm in it: shared memory gets a tmpfs
    // as large as the scratch, and the rest of /dev is read-only (its nodes stay writable).
    // The tmpfs folders are bwrap's, root's when it runs as root: sticky and open to all, as /tmp is,
    // for the policy's user.
    argv.insert(argv.end(), {"--perms", "01777", "--size", std::to_string(policy.scratch_bytes), "--tmpfs", "/dev/shm",
                             "--remount-ro", "/dev"});
    // The system, read-only: folders as binds, merged-/usr links as links.
    std::vector<sandbox_bind> system;
    for (const char* dir : {"/usr", "/etc", "/opt", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin"}) {
        const auto status = std::filesystem::symlink_status(dir, error);
        if (std::filesystem::is_symlink(status)) {
            argv.insert(argv.end(), {"--symlink", std::filesystem::read_symlink(dir, error).string(), dir});
        } else if (std::filesystem::is_directory(status)) {
            argv.insert(argv.end(), {"--ro-bind", dir, dir});
            system.push_back({dir, {}});
        }
    }
    // What the CUDA driver reads of the devices and their bus (sysfs), read-only.
    std::set<std::filesystem::path> made;
    for (const char* dir : {"/sys/bus", "/sys/class", "/sys/dev", "/sys/devices", "/sys/module/nvidia"}) {
        add_open_parents(argv, dir, made);
        argv.insert(argv.end(), {"--ro-bind-try", dir, dir});
    }
    argv.insert(argv.end(), {"--perms", "01777", "--size", std::to_string(policy.scratch_bytes), "--tmpfs", "/tmp"});
    const auto mounts = policy_mounts(policy, system);
    argv.insert(argv.end(), mounts.begin(), mounts.end());
    const auto covers = root_covers(policy);
    argv.insert(argv.end(), covers.begin(), covers.end());
    // What the shim needs to become the user, and nothing else (it empties all of them before the command).
    if (policy.user)
        argv.insert(argv.end(), {"--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add",
                                 "CAP_SETPCAP"});
    const std::string workdir = policy.workdir.empty() ? "/tmp" : plain(policy.workdir).string();
    if (!policy.workdir.empty()) argv.insert(argv.end(), {"--dir", workdir});
    // bwrap's root, where the mount points above were made, is a tmpfs in memory with no size: once
    // they are made, it is read-only (the mounts on it keep their own modes).
    argv.insert(argv.end(), {"--remount-ro", "/"});
    argv.insert(argv.end(), {"--clearenv", "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"});
    bool path_set = false;
    for (char** variable = environ; *variable; ++variable) {
        const std::string entry = *variable;
        const auto equals = entry.find('=');
        if (equals == std::string::npos) continue;
        const std::string name = entry.substr(0, equals);
        if (!kept_variable(name, policy.keep_env) || set_by(policy, name)) continue;
        path_set = path_set || name == "PATH";
        argv.insert(argv.end(), {"--setenv", name, entry.substr(equals + 1)});
    }
    for (const auto& [name, value] : policy.environment) {
        path_set = path_set || name == "PATH";
        argv.insert(argv.end(), {"--setenv", name, value});
    }
    if (!path_set) argv.insert(argv.end(), {"--setenv", "PATH", "/usr/bin:/bin"});
    // A name for a user the password file may not know (Python's getpass reads these first).
    if (policy.user)
        for (const char* name : {"USER", "LOGNAME"})
            if (!set_by(policy, name)) argv.insert(argv.end(), {"--setenv", name, "gpujudge-sandbox"});
    argv.insert(argv.end(), {"--chdir", workdir, "--seccomp", std::to_string(fds.seccomp), "--"});
    if (const auto& user = policy.user)
        argv.insert(argv.end(), {user->shim.string(), "--become", fmt::format("{}:{}", user->uid, user->gid), "--"});
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

void map_sandbox_user(int info_fd, int block_fd, const sandbox_user& user) {
    // bwrap writes {"child-pid": N, ...} as soon as its child exists, then waits on `block_fd`.
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    nlohmann::json info = nlohmann::json::parse(text, nullptr, false);
    while (info.is_discarded()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd wanted{info_fd, POLLIN, 0};
        const int ready = left.count() <= 0 ? 0 : poll(&wanted, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
        if (ready == 0)
            throw std::runtime_error("bwrap did not say which process to map the sandbox's user in within 30 s");
        char buffer[512];
        const ssize_t got = read(info_fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) throw std::runtime_error("bwrap ended before its sandbox's user could be mapped");
        text.append(buffer, static_cast<std::size_t>(got));
        info = nlohmann::json::parse(text, nullptr, false);
    }
    const auto pid = info.value("child-pid", 0);
    if (pid <= 0) throw std::runtime_error(fmt::format("bwrap named no child process: {}", text));
    // Root as itself (bwrap's mounts need it mapped), the user as itself.
    const auto write_map = [&](const char* name, unsigned id) {
        const std::string map = id == 0 ? "0 0 1\n" : fmt::format("0 0 1\n{0} {0} 1\n", id);
        const std::string path = fmt::format("/proc/{}/{}", pid, name);
        const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
        const bool written = fd >= 0 && write(fd, map.data(), map.size()) == static_cast<ssize_t>(map.size());
        const int error = errno;
        if (fd >= 0) close(fd);
        if (!written) throw std::runtime_error(fmt::format("{}: cannot be written: {}", path, std::strerror(error)));
    };
    write_map("uid_map", user.uid);
    write_map("gid_map", user.gid);
    const char go = 1;
    if (send(block_fd, &go, 1, MSG_NOSIGNAL) != 1)
        throw std::runtime_error(fmt::format("bwrap cannot be told to go on: {}", std::strerror(errno)));
}

std::vector<std::string> bwrap_environment(const std::filesystem::path& bwrap) {
    std::vector<std::string> environment;
    for (char** variable = environ; *variable; ++variable) environment.emplace_back(*variable);
    const auto here = own_folder();
    const auto folder = bwrap.parent_path();
    if (here.empty() || (folder != std::filesystem::weakly_canonical(here) &&
                         folder != std::filesystem::weakly_canonical(here / ".." / "lib")))
        return environment;
    // A bwrap carried beside the binary, its libraries (libcap, libselinux, libpcre2) in ../lib.
    const std::string libraries = std::filesystem::weakly_canonical(here / ".." / "lib").string();
    const char* previous = std::getenv("LD_LIBRARY_PATH");
    environment.erase(std::remove_if(environment.begin(), environment.end(),
                                     [](const std::string& entry) { return starts_with(entry, "LD_LIBRARY_PATH="); }),
                      environment.end());
    environment.push_back("LD_LIBRARY_PATH=" + libraries + (previous && *previous ? ":" + std::string(previous) : ""));
    return environment;
}

namespace {

// Why `/bin/true` does not run under `policy` (1 MiB of scratch); nothing when it does.
std::optional<std::string> why_true_fails(sandbox_policy policy) {
    policy.scratch_bytes = 1 << 20;
    spawn_options options;
    options.sandbox = std::move(policy);
    try {
        const command_result result = run_command({"/bin/true"}, std::chrono::seconds(30), options);
        if (!result.exit.timed_out && !result.exit.signaled && result.exit.code == 0) return std::nullopt;
        const std::string said = without_trailing_space(result.output);
        return fmt::format("bwrap failed ({}){}{}", result.exit.describe(), said.empty() ? "" : ": ", said);
    } catch (const std::exception& error) {
        return std::string(error.what());
    }
}

}  // namespace

const sandbox_probe& sandbox_available() {
    static sandbox_probe probe;
    static std::once_flag once;
    std::call_once(once, [] {
        try {
            if (!find_bwrap()) {
                probe.why = "bwrap (bubblewrap) not found beside gpujudge or on PATH";
                return;
            }
        } catch (const std::exception& error) {
            probe.why = error.what();
            return;
        }
        const auto why = why_true_fails({});
        probe.ok = !why;
        probe.why = why.value_or("");
    });
    return probe;
}

namespace {

// $GPUJUDGE_SANDBOX_USER ("UID" or "UID:GID", numbers; GID defaults to UID), else sandbox_user's
// own; nothing for uid 0, which asks for root as before. A value that is neither is warned about.
std::optional<sandbox_user> configured_user() {
    sandbox_user user;
    const char* text = std::getenv("GPUJUDGE_SANDBOX_USER");
    if (!text || !*text) return user;
    const auto number = [](const char* from, char** end) {
        errno = 0;
        const unsigned long value = std::isdigit(static_cast<unsigned char>(*from)) ? std::strtoul(from, end, 10) : 0;
        return *end != from && errno == 0 && value < 4294967295ul ? std::optional<unsigned long>(value) : std::nullopt;
    };
    char* end = const_cast<char*>(text);
    const auto uid = number(text, &end);
    std::optional<unsigned long> gid = uid;
    if (uid && *end == ':') gid = number(end + 1, &end);
    if (uid && *uid == 0 && *end == '\0') return std::nullopt;
    if (!uid || !gid || *end != '\0' || *gid == 0) {
        spdlog::warn(
            "GPUJUDGE_SANDBOX_USER='{}' is not UID or UID:GID (numbers, GID not 0; 0 for root); "
            "using {}:{}",
            text, user.uid, user.gid);
        return user;
    }
    user.uid = static_cast<uid_t>(*uid);
    user.gid = static_cast<gid_t>(*gid);
    return user;
}

// Whether `user` may use `path` by its owner's, group's or others' bits: read a file (run it, for
// the shim), list a folder, read and write a device.
bool user_may_use(const std::filesystem::path& path, const sandbox_user& user, bool run = false) {
    struct stat status {};
    if (stat(path.c_str(), &status) != 0) return true;  // nothing there: bwrap says so, as for any user
    const mode_t need =
        S_IROTH | (S_ISDIR(status.st_mode) || run ? S_IXOTH : 0) | (S_ISCHR(status.st_mode) ? S_IWOTH : 0);
    const int shift = status.st_uid == user.uid ? 6 : status.st_gid == user.gid ? 3 : 0;
    return ((status.st_mode >> shift) & need) == need;
}

[[noreturn]] void refuse_user(const std::string& what, const sandbox_user& user) {
    throw environment_error(fmt::format(
        "{}; a root judge runs submissions as uid {} (root's sandbox has no limit on processes): mend that, set "
        "GPUJUDGE_SANDBOX_USER to another UID:GID, or to 0 to run them as root, or run gpujudge as an ordinary user",
        what, user.uid));
}

// The user a root judge's runners run as, found once (a failure throws, and is tried again next
// time): bwrap maps it and the shim becomes it here.
std::optional<sandbox_user> probed_user(const std::filesystem::path& shim) {
    static std::optional<sandbox_user> user;
    static std::once_flag once;
    std::call_once(once, [&] {
        if (geteuid() != 0) return;
        auto wanted = configured_user();
        if (!wanted) return;
        wanted->shim = std::filesystem::weakly_canonical(shim);
        if (!user_may_use(wanted->shim, *wanted, true))
            refuse_user(fmt::format("{}: uid {} may not run it", wanted->shim.string(), wanted->uid), *wanted);
        sandbox_policy policy;
        bind_program(policy, wanted->shim);
        policy.user = wanted;
        if (const auto why = why_true_fails(policy))
            refuse_user(fmt::format("the sandbox cannot run as uid {} here: {}", wanted->uid, *why), *wanted);
        user = wanted;
    });
    return user;
}

}  // namespace

void bind_program(sandbox_policy& policy, const std::filesystem::path& program) {
    const auto folder = std::filesystem::weakly_canonical(program).parent_path();
    policy.read_only.push_back({folder, {}});
    std::error_code error;
    if (std::filesystem::is_directory(folder / ".." / "lib", error))
        policy.read_only.push_back({std::filesystem::weakly_canonical(folder / ".." / "lib"), {}});
}

void run_as_submission_user(sandbox_policy& policy, const std::filesystem::path& shim) {
    const auto user = probed_user(shim);
    if (!user) return;
    for (const auto& bind : policy.read_only)
        if (!user_may_use(bind.source, *user))
            refuse_user(fmt::format("{}: uid {} may not read it (chmod o+rX)", bind.source.string(), user->uid), *user);
    for (const auto& node : nvidia_device_nodes("/dev", policy.gpu_minor))
        if (!user_may_use(node, *user))
            refuse_user(fmt::format("{}: uid {} may not use it", node.string(), user->uid), *user);
    for (const auto& bind : policy.writable)
        if (chown(bind.source.c_str(), user->uid, user->gid) != 0)
            refuse_user(
                fmt::format("{}: cannot be given to uid {}: {}", bind.source.string(), user->uid, std::strerror(errno)),
                *user);
    policy.user = user;
}

void require_sandbox() {
    const sandbox_probe& probe = sandbox_available();
    if (!probe.ok)
        throw environment_error(fmt::format(
            "the sandbox for submissions does not work here: {}; install bubblewrap (Debian: bubblewrap) and allow "
            "unprivileged user namespaces, or run with --no-sandbox to judge without it (results are then not kept)",
            probe.why));
}

std::optional<std::string> take_from_sandbox(const std::filesystem::path& from, const std::filesystem::path& to) {
    struct descriptor {
        int fd;
        ~descriptor() {
            if (fd >= 0) close(fd);
        }
    };
    const descriptor in{open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
    const int error = in.fd < 0 ? errno : 0;
    struct stat opened {};
    if (in.fd < 0 || fstat(in.fd, &opened) != 0 || !S_ISREG(opened.st_mode))
        return std::string(error == ELOOP ? "it is a symbolic link"
                           : error        ? std::strerror(error)
                                          : "it is not a regular file");
    // The judge's now, as a copy would be: a root judge's sandbox user wrote it, with a mode of its choosing.
    if (opened.st_uid != geteuid() && fchown(in.fd, geteuid(), getegid()) != 0)
        return std::string("it cannot be made the judge's: ") + std::strerror(errno);
    if ((opened.st_mode & 07777) != (opened.st_mode & 0755)) fchmod(in.fd, opened.st_mode & 0755);
    const std::string partial = private_name(to);
    std::error_code ignored;
    if (rename(from.c_str(), partial.c_str()) == 0) {  // one file system: nothing copied
        struct stat moved {};
        if (lstat(partial.c_str(), &moved) != 0 || moved.st_dev != opened.st_dev || moved.st_ino != opened.st_ino) {
            std::filesystem::remove(partial, ignored);
            return std::string("it was replaced while it was taken");
        }
        std::filesystem::rename(partial, to);
        return std::nullopt;
    }
    const descriptor out{open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, opened.st_mode & 0755)};
    off_t left = opened.st_size;
    while (out.fd >= 0 && left > 0) {
        const ssize_t sent = sendfile(out.fd, in.fd, nullptr, static_cast<std::size_t>(left));
        if (sent <= 0) break;
        left -= sent;
    }
    if (out.fd < 0 || left != 0) {
        std::filesystem::remove(partial, ignored);
        throw std::runtime_error(fmt::format("{}: cannot be written", partial));
    }
    std::filesystem::rename(partial, to);
    std::filesystem::remove(from, ignored);
    return std::nullopt;
}

}  // namespace gpujudge
