#pragma once
// Child processes of the judge: each in its own process group, killed as a group, and reaped;
// processes that escape the group and are reparented to the judge are swept up too.
#include "process/sandbox.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

struct spawn_options {
    std::filesystem::path output_file;  // stdout and stderr; /dev/null when empty
    int channel_fd = -1;                // becomes fd 3 in the child when >= 0
    int control_fd = -1;                // becomes fd 4 in the child when >= 0
    int outputs_fd = -1;                // becomes fd 5 in the child when >= 0
    resource_limits limits;             // set in the child before its program starts
    // Runs the command under bwrap with this policy (and its limits, on top of `limits`).
    std::optional<sandbox_policy> sandbox;
    // Variables set in the child's environment, name and value, over the judge's; in the sandbox's
    // (added to the policy's), when there is one.
    std::vector<std::pair<std::string, std::string>> environment;
    // Past this many bytes in output_file, the child is killed (wait() with a deadline watches): a
    // compiler made to print a gigabyte of warnings by a few KB of source. 0: no limit.
    std::uintmax_t output_limit_bytes = 0;
};

struct child_exit {
    bool timed_out = false;
    bool flooded = false;  // killed for printing past spawn_options::output_limit_bytes
    bool signaled = false;
    int signal = 0;
    int code = 0;
    std::string describe() const;  // "exit status 0", "signal SIGSEGV (Segmentation fault)"
};

class child_process {
public:
    child_process(const std::vector<std::string>& argv, const spawn_options& options);
    ~child_process();  // kills the whole group if still running
    child_process(const child_process&) = delete;
    child_process& operator=(const child_process&) = delete;

    int pid() const { return pid_; }
    // Waits for the child until `deadline`; on expiry kills its group. Always kills what is left
    // of the group afterwards, so nothing the child started survives it.
    child_exit wait(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
    void kill_group();
    // Kills the group and stops waiting: a process holding gigabytes takes the kernel a second to
    // tear down, which work nobody wants any more need not wait for. It can run no more code;
    // sweep_orphans() reaps it once gone (or init does, after the judge exits).
    void abandon();

private:
    // Forks and starts `program` under the spawn's lock (see child_process.cpp's untrack); throws,
    // with nothing left running, when it cannot start. `name` is the command as asked, for messages.
    void start(const std::string& name, const std::string& program, std::vector<char*>& args, std::vector<char*>& env,
               const std::string& output, const std::vector<std::pair<int, int>>& moves, const resource_limits& limits);
    bool flooding() const;  // its output is past the limit

    int pid_ = -1;
    bool reaped_ = false;
    bool sandboxed_ = false;  // under bwrap, which turns a signal into an exit status (see wait)
    std::filesystem::path output_file_;
    std::uintmax_t output_limit_bytes_ = 0;
    child_exit exit_;
};

struct command_result {
    child_exit exit;
    std::string output;
};

// Runs a command to completion (or the timeout) and returns its combined output; `options` give
// its limits or sandbox (their output file and descriptors are not used).
command_result run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                           const spawn_options& options = {});

// Makes the judge the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER), then kills and
// reaps any that are not processes the judge is waiting for.
void become_subreaper();
void sweep_orphans();

// For an ending that runs no destructors (stop_signals.hpp): kills every child's group and every
// orphan, and lets no child start after it.
void kill_children_for_good();

// What a command printed, without the newlines and spaces it ended with: for a message.
std::string without_trailing_space(std::string output);

// The processes whose parent is `parent`, read from /proc.
std::vector<int> children_of(int parent);

// The folders a PATH-like value names, in order (an empty entry is the working directory).
std::vector<std::filesystem::path> path_folders(const std::string& value);

// The executable file `program` in the first of `folders` that has one; nothing when none does.
std::optional<std::filesystem::path> find_in_folders(const std::string& program,
                                                     const std::vector<std::filesystem::path>& folders);

// The executable file `program` in the first folder of PATH that has one. The CUDA Toolkit's
// programs are found with find_toolkit_program (toolkit/programs.hpp), which looks further.
std::optional<std::filesystem::path> find_program(const std::string& program);

}  // namespace gpujudge
