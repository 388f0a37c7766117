#include "timing/thread_cpu.hpp"

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

thread_cpu_reading read_thread_cpu() {
    thread_cpu_reading reading;
    const std::unique_ptr<DIR, dir_closer> tasks(opendir("/proc/self/task"));
    if (!tasks) return reading;
    reading.listed = true;
    const auto self = static_cast<pid_t>(syscall(SYS_gettid));
    while (const dirent* entry = readdir(tasks.get())) {
        const auto tid = static_cast<pid_t>(std::atoi(entry->d_name));
        timespec used{};
        // A thread that ended since the listing has no clock left: it is not listed.
        if (tid <= 0 || tid == self || clock_gettime(thread_cpu_clock(tid), &used) != 0) continue;
        reading.others.emplace_back(tid,
                                    1e3 * static_cast<double>(used.tv_sec) + 1e-6 * static_cast<double>(used.tv_nsec));
    }
    std::sort(reading.others.begin(), reading.others.end());
    return reading;
}

double other_threads_used(const thread_cpu_reading& before, const thread_cpu_reading& after) {
    constexpr double kUnknown = std::numeric_limits<double>::infinity();
    if (!before.listed || !after.listed) return kUnknown;
    double used = 0;
    auto earlier = before.others.begin();
    const auto end = before.others.end();
    for (const auto& [tid, ms] : after.others) {
        if (earlier != end && earlier->first < tid) return kUnknown;  // a thread of `before` ended
        if (earlier == end || earlier->first != tid) {
            used += ms;  // started since
            continue;
        }
        if (earlier->second > ms) return kUnknown;  // a new thread under the id of one that ended
        used += ms - earlier->second;
        ++earlier;
    }
    return earlier == end ? used : kUnknown;
}

}  // namespace gpujudge
