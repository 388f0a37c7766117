#pragma once
// CPU time of the runner's other threads: work a submission hands to a thread it did not have to start
// (CUDA's own thread for host functions, a Python thread) shows there, and nowhere else.
#include <sys/types.h>

#include <utility>
#include <vector>

namespace gpujudge {

// The CPU time, in ms, each thread of this process but the calling one has used so far, by thread id
// (ascending), each read on the thread's own clock: a process-wide clock leaves out what threads running
// on other CPUs used since their last tick (1-4 ms of it). `listed` is false where /proc/self/task could
// not be read (no descriptor left, say): then nothing is known.
struct thread_cpu_reading {
    std::vector<std::pair<pid_t, double>> others;
    bool listed = false;
};
thread_cpu_reading read_thread_cpu();

// The CPU time the other threads used from one reading to a later one: infinite where it cannot be
// known, when either reading could not list the threads or a thread of the first is gone (what it did
// before it ended can no longer be read).
double other_threads_used(const thread_cpu_reading& before, const thread_cpu_reading& after);

}  // namespace gpujudge
