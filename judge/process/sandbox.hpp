#pragma once
// The runner's sandbox: a command run under bubblewrap (bwrap), in namespaces of its own (no
// network, its own processes, its own mounts), seeing only what a policy binds into it, behind a
// seccomp filter that libseccomp compiles. Well-kept tools rather than hand-rolled mount and
// syscall code: bwrap is what Flatpak runs every application in.
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

// A host path bound into the sandbox at `target` (the same path when empty).
struct sandbox_bind {
    std::filesystem::path source;
    std::filesystem::path target;
};

// Limits a child process runs under, set in it before its program starts (inherited by all it
// starts). Zero: left as the judge's.
struct resource_limits {
    rlim_t cpu_seconds = 0;    // RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL a second later
    rlim_t file_bytes = 0;     // RLIMIT_FSIZE: SIGXFSZ for a write past it
    rlim_t address_bytes = 0;  // RLIMIT_AS
    rlim_t open_files = 0;     // RLIMIT_NOFILE
    bool no_core = false;      // RLIMIT_CORE 0
};

// The user a root judge's runners run as. Root is the one user the kernel never holds to RLIMIT_NPROC
// (a fork bomb in solve took every PID of the machine, and the references started meanwhile failed)
// and whose per-user counters the judge shares. bwrap maps this user into the sandbox's user
// namespace beside root and makes its mounts as that root; then the shim, the runner's program
// (`<shim> --become UID:GID -- command`, runner_program/become_user.hpp), becomes this user with no
// capability left before the command starts.
struct sandbox_user {
    // One that no account or process on the machine holds, which could signal its runners or change
    // their limits (nobody is many daemons'); or $GPUJUDGE_SANDBOX_USER ("UID" or "UID:GID").
    uid_t uid = 2000000000;
    gid_t gid = 2000000000;
    std::filesystem::path shim;
};

struct sandbox_policy {
    // Besides the system (/usr, /etc, /opt, /lib*, /bin, /sbin, the GPU's devices), always read-only.
    std::vector<sandbox_bind> read_only;
    std::vector<sandbox_bind> writable;
    std::uintmax_t scratch_bytes = std::uintmax_t{1} << 30;  // the private /tmp (HOME), a size-capped tmpfs
    // Also RLIMIT_FSIZE = scratch_bytes. No RLIMIT_NPROC here: set before bwrap it counts the user's
    // threads and processes everywhere; the runner sets it on itself inside (hello_job::max_tasks).
    // The PID namespace ends every process the submission starts when its init (bwrap) dies, which
    // --die-with-parent ties to the judge's child.
    resource_limits limits{900, 0, 0, 4096, true};
    // Environment variables kept besides PATH, LD_LIBRARY_PATH, CUDA_* and NVIDIA_* (and those named
    // in $GPUJUDGE_SANDBOX_ENV, comma-separated).
    std::vector<std::string> keep_env;
    // Variables set inside, name and value, over any of the judge's that would be kept (a grade
    // worker's CUDA_VISIBLE_DEVICES).
    std::vector<std::pair<std::string, std::string>> environment;
    // Folders the command must not see: each is covered by an empty tmpfs wherever a bind (the
    // system's too) would show it (the judge's cache inside a bound home). A folder bound inside a
    // hidden one stays visible: every mount is made after those of the folders holding it.
    std::vector<std::filesystem::path> hidden;
    // Where the command starts (made, empty, where no bind holds it); empty: /tmp.
    std::filesystem::path workdir;
    // The one GPU whose node (/dev/nvidia<minor>) is bound, of the GPUs' own nodes; none: all of them.
    std::optional<int> gpu_minor;
    // A launcher's tool (ncu, compute-sanitizer) runs inside, in front of the runner: what it may need
    // stays allowed, and its runs are not held to the memory limit. Otherwise refused (see
    // deny_beyond_the_processes in sandbox.cpp): memory and counters the kernel keeps outside every
    // process, and POSIX timers, which can send a stop signal past the rules on kill().
    bool launcher_tool = false;
    // Who the command runs as: none, the judge's user (see run_as_submission_user).
    std::optional<sandbox_user> user;
};

// The limits a policy's command runs under (its rlimits with RLIMIT_FSIZE = the scratch size).
resource_limits sandbox_limits(const sandbox_policy& policy);

// bwrap: beside the gpujudge binary (<exe dir>/bwrap, <exe dir>/../lib/bwrap, where
// tests/gpu/package.sh puts it), else on PATH. Nothing when there is none.
std::optional<std::filesystem::path> find_bwrap();

// The seccomp filter (BPF, from libseccomp) in a memfd, for bwrap's --seccomp: EPERM for ptrace,
// process_vm_*, mount and namespace calls, bpf, keyrings, kexec, modules, userfaultfd, reboot,
// swap, open_by_handle_at and AF_PACKET sockets, file leases and signal-driven I/O, and unless
// `launcher_tool` what sandbox_policy::launcher_tool names. The caller closes it. Throws when
// libseccomp fails.
int seccomp_filter_fd(bool launcher_tool);

// The descriptor numbers bwrap reads in the child: the seccomp filter's, and for a policy with a
// user, where it writes its child's pid (--info-fd) and where it waits until the judge has mapped
// the user (--userns-block-fd).
struct sandbox_fds {
    int seccomp = -1;
    int info = -1;
    int block = -1;
};

// The full command line: bwrap, its options for `policy` (reading from the descriptors `fds`
// names), then `command` (after the shim's --become for a policy's user).
std::vector<std::string> sandbox_argv(const std::filesystem::path& bwrap, const sandbox_policy& policy,
                                      const sandbox_fds& fds, const std::vector<std::string>& command);

// For a policy with a user, in the judge once bwrap has started: reads the pid of bwrap's child from
// `info_fd`, writes its user namespace's maps (root to root, the user to itself), then lets it go on
// through `block_fd` (a socket: sent to without SIGPIPE). Throws saying what failed (bwrap ended
// first, the kernel refused a map).
void map_sandbox_user(int info_fd, int block_fd, const sandbox_user& user);

// Binds `program`'s folder read-only, and ../lib beside it where there is one (the libraries a
// packaged build carries: tests/gpu/package.sh).
void bind_program(sandbox_policy& policy, const std::filesystem::path& program);

// For a root judge, where the submission's code runs: sets the policy's user (sandbox_user, with
// `shim` the runner's program) and gives it the policy's writable binds (chown: only the judge's own
// folders are bound writable there). Throws environment_error (exit 13) naming what to mend where it
// cannot: this kernel or bwrap cannot map the user (probed once), or the user may not read a
// read-only bind or the shim, or use a GPU node, or a writable bind cannot be given. Never falls back
// to a root sandbox unasked: $GPUJUDGE_SANDBOX_USER=0 asks. An ordinary judge's sandbox is its own
// user's: nothing changes.
void run_as_submission_user(sandbox_policy& policy, const std::filesystem::path& shim);

// The environment bwrap itself starts with: the judge's, with LD_LIBRARY_PATH naming the folder of
// a bwrap carried beside the binary (its libraries are there, see tests/gpu/package.sh).
std::vector<std::string> bwrap_environment(const std::filesystem::path& bwrap);

// Whether the sandbox works here: `bwrap ... true` once per process (the answer is kept); when it
// does not, why ("bwrap not found ...", "bwrap failed: <what it printed>").
struct sandbox_probe {
    bool ok = false;
    std::string why;
};
const sandbox_probe& sandbox_available();

// Throws environment_error naming what failed and --no-sandbox unless the sandbox works.
void require_sandbox();

// A file that a sandboxed process wrote into a folder of the judge's (a compiler's library, a
// reference's outputs, a profiler's report), moved to `to`, where the judge keeps it. A regular file
// only: it is opened without following a link (O_NOFOLLOW; a FIFO does not block the judge), then
// renamed through a private name beside `to` and checked to be the file opened (a process still
// running could swap the name meanwhile), or, on another file system, copied from the opened file;
// renamed into place last, so that no reader sees half of it. Nothing when done; else why not: "it
// is a symbolic link", "it is not a regular file", "it was replaced while it was taken", or the
// system's words ("No such file or directory"). It ends the judge's (chown), without write for
// group and others or set-id bits. Throws when the judge cannot write beside `to`.
std::optional<std::string> take_from_sandbox(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace gpujudge
