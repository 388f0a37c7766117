#include "thread_cpu.hpp"

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <memory>

namespace gpujudge {

namespace {

// The kernel's clock id for one thread's scheduled CPU time (glibc's pthread_getcpuclockid builds the
// same from a pthread_t): CPUCLOCK_SCHED (2) | CPUCLOCK_PERTHREAD_MASK (4), the thread id inverted above.
clockid_t thread_cpu_clock(pid_t tid) {
    return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
}

struct dir_closer {
    void operator()(DIR* dir) const { closedir(dir); }
};

}  // namespace

thread_cpu_times other_threads_cpu() {
    thread_cpu_times times;
    const std::unique_ptr<DIR, dir_closer> tasks(opendir("/proc/self/task"));
    if (!tasks) return times;
    const auto self = static_cast<pid_t>(syscall(SYS_gettid));
    while (const dirent* entry = readdir(tasks.get())) {
        const auto tid = static_cast<pid_t>(std::atoi(entry->d_name));
        timespec used{};
        // A thread that ended since the listing has no clock left: it is not listed.
        if (tid <= 0 || tid == self || clock_gettime(thread_cpu_clock(tid), &used) != 0) continue;
        times.emplace_back(tid, 1e3 * static_cast<double>(used.tv_sec) + 1e-6 * static_cast<double>(used.tv_nsec));
    }
    std::sort(times.begin(), times.end());
    return times;
}

double cpu_used_between(const thread_cpu_times& before, const thread_cpu_times& after) {
    constexpr double kUnknown = std::numeric_limits<double>::infinity();
    double used = 0;
    auto earlier = before.begin();
    for (const auto& [tid, ms] : after) {
        if (earlier != before.end() && earlier->first < tid) return kUnknown;  // a thread of `before` ended
        if (earlier != before.end() && earlier->first == tid)
            used += ms - (earlier++)->second;
        else
            used += ms;  // started since
    }
    return earlier == before.end() ? used : kUnknown;
}

}  // namespace gpujudge
