#include "process/solve_alone.hpp"

#include "process/seccomp_filter.hpp"

#include <sys/prctl.h>

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace gpujudge {

const char* const kSolveAloneRule =
    "the submission started a thread or a process (clone, fork), armed a timer or installed a seccomp filter. A "
    "judged solve runs alone: nothing of it may work between the judge's calls, outside its clocks";

const char* const kReferenceAloneRule =
    "it started a thread or a process (clone, fork) or armed a timer. A reference runs alone, one call "
    "on a thread of its own (the judge runs the tests' references in parallel itself): nothing of it may write "
    "its outputs after it has returned and they were checked";

namespace {

// Loads the filter that keeps `tsync`'s threads (all the process's, or the caller alone) from
// starting threads, processes or timers, and from filters of their own.
void run_alone(bool tsync) {
    seccomp_filter filter;
    if (tsync)
        if (const int error = seccomp_attr_set(filter.get(), SCMP_FLTATR_CTL_TSYNC, 1); error != 0)
            throw std::runtime_error(fmt::format("libseccomp cannot reach every thread: {}", std::strerror(-error)));
    // perf_event_open: a counter's overflow signal is a timer too. seccomp: a filter of the submission's
    // that traps a call the harness makes (a write to the judge) runs its handler inside the harness.
    filter.add_rules(SCMP_ACT_KILL_PROCESS, {"clone", "clone3", "fork", "vfork", "setitimer", "alarm", "timer_create",
                                             "perf_event_open", "seccomp", "io_uring_setup"});
    filter.add_rule(SCMP_ACT_KILL_PROCESS, SCMP_SYS(prctl), "prctl", {int_argument_is(0, PR_SET_SECCOMP)});
    if (const int error = seccomp_load(filter.get()); error != 0)
        throw std::runtime_error(fmt::format("cannot load the seccomp filter: {}", std::strerror(-error)));
}

}  // namespace

// Every thread the runner has (the CUDA driver's too: a host function runs on one of them).
void make_solve_run_alone() {
    run_alone(true);
}

void make_this_thread_run_alone() {
    run_alone(false);
}

}  // namespace gpujudge
