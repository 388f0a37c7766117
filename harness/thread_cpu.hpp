#pragma once
// CPU time of the runner's other threads: work a submission hands to a thread it did not have to start
// (CUDA's own thread for host functions, a Python thread) shows there, and nowhere else.
#include <sys/types.h>

#include <utility>
#include <vector>

namespace gpujudge {

// The CPU time, in ms, each thread of this process but the calling one has used so far, by thread id
// (ascending), each read on the thread's own clock: a process-wide clock leaves out what threads
// running on other CPUs used since their last tick.
using thread_cpu_times = std::vector<std::pair<pid_t, double>>;
thread_cpu_times other_threads_cpu();

// The CPU time the other threads used from one reading to a later one: infinite when a thread of the
// first is gone, since what it did before it ended can no longer be read.
double cpu_used_between(const thread_cpu_times& before, const thread_cpu_times& after);

}  // namespace gpujudge
