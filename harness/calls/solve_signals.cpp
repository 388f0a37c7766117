#include "calls/solve_signals.hpp"

#include <signal.h>

#include <array>
#include <optional>

namespace gpujudge {

namespace {

using handlers = std::array<struct sigaction, NSIG>;

std::optional<handlers>& kept() {
    static std::optional<handlers> kept_handlers;
    return kept_handlers;
}

// The mask of the thread that calls solve, from before the call.
thread_local sigset_t t_mask_before_call;

bool can_set(int signal) {
    return signal != SIGKILL && signal != SIGSTOP;
}

}  // namespace

void keep_signal_handlers() {
    handlers now{};
    for (int signal = 1; signal < NSIG; ++signal)
        if (can_set(signal)) sigaction(signal, nullptr, &now[static_cast<std::size_t>(signal)]);
    kept() = now;
}

solve_signals::solve_signals() {
    pthread_sigmask(SIG_SETMASK, nullptr, &t_mask_before_call);
}

void solve_signals::solve_returned() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
}

solve_signals::~solve_signals() {
    if (const auto& handlers = kept())
        for (int signal = 1; signal < NSIG; ++signal)
            if (can_set(signal)) sigaction(signal, &(*handlers)[static_cast<std::size_t>(signal)], nullptr);
    pthread_sigmask(SIG_SETMASK, &t_mask_before_call, nullptr);
}

}  // namespace gpujudge
