#include "process/solve_alone.hpp"

#include <seccomp.h>
#include <sys/prctl.h>

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace gpujudge {

const char* const kSolveAloneRule =
    "the submission started a thread or a process (clone, fork), armed a timer or installed a seccomp filter. A "
    "judged solve runs alone: nothing of it may work between the judge's calls, outside its clocks";

void make_solve_run_alone() {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) throw std::runtime_error("libseccomp: cannot create a filter");
    struct release {
        scmp_filter_ctx filter;
        ~release() { seccomp_release(filter); }
    } on_exit{filter};
    // Every thread the runner has (the CUDA driver's too: a host function runs on one of them).
    if (const int error = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1); error != 0)
        throw std::runtime_error(fmt::format("libseccomp cannot reach every thread: {}", std::strerror(-error)));
    // perf_event_open: a counter's overflow signal is a timer too. seccomp: a filter of the submission's
    // that traps a call the harness makes (a write to the judge) runs its handler inside the harness.
    for (const char* name : {"clone", "clone3", "fork", "vfork", "setitimer", "alarm", "timer_create",
                             "perf_event_open", "seccomp", "io_uring_setup"}) {
        const int syscall = seccomp_syscall_resolve_name(name);
        if (syscall == __NR_SCMP_ERROR) continue;  // not a system call of this architecture
        if (const int error = seccomp_rule_add(filter, SCMP_ACT_KILL_PROCESS, syscall, 0); error != 0)
            throw std::runtime_error(fmt::format("libseccomp cannot deny {}: {}", name, std::strerror(-error)));
    }
    if (const int error =
            seccomp_rule_add(filter, SCMP_ACT_KILL_PROCESS, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP));
        error != 0)
        throw std::runtime_error(fmt::format("libseccomp cannot deny prctl: {}", std::strerror(-error)));
    if (const int error = seccomp_load(filter); error != 0)
        throw std::runtime_error(fmt::format("cannot load the seccomp filter: {}", std::strerror(-error)));
}

}  // namespace gpujudge
