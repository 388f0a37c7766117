// What a compiled solve runs alone with (judge/process/solve_alone.hpp, harness/calls/solve_signals.hpp),
// each in a child process of its own: the filter stays for the life of the process that loads it.
#include "buffers/memory_space.hpp"
#include "calls/solve_signals.hpp"
#include "process/solve_alone.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <vector>

using namespace gpujudge;

namespace {

// How `body` ended in a child: its exit status, or 128 + the signal that killed it.
int in_child(const std::function<int()>& body) {
    const pid_t child = fork();
    if (child == 0) _exit(body());
    int status = 0;
    waitpid(child, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Inputs of 2^21 elements: more than the host space generates on one thread unless told not to.
int generate_large(bool told) {
    make_solve_run_alone();
    const auto space = make_host_space();
    if (told) space->before_solve_alone();
    generator_params params;
    params.kind = generator_kind::uniform;
    params.b = 1;
    std::vector<float> h_values(std::size_t{1} << 21);
    space->generate(h_values.data(), params, element_type::f32, h_values.size());
    return 0;
}

volatile sig_atomic_t g_handled = 0;
void note_signal(int) {
    g_handled = 1;
}

}  // namespace

TEST_CASE("the host space generates on its one thread once solve runs alone", "[solve_alone]") {
    CHECK(in_child([] { return generate_large(true); }) == 0);
    CHECK(in_child([] { return generate_large(false); }) == 128 + SIGSYS);  // its threads, stopped
}

TEST_CASE("no handler solve installs runs after it returned, and the kept ones come back", "[solve_alone]") {
    // SIGWINCH: ignored by default, so the signal left pending ends nothing when it is let through.
    signal(SIGWINCH, SIG_DFL);
    keep_signal_handlers();
    {
        solve_signals signals;
        signal(SIGWINCH, note_signal);  // what solve does
        raise(SIGWINCH);
        CHECK(g_handled == 1);  // during the call it is solve's own business
        g_handled = 0;
        signals.solve_returned();
        raise(SIGWINCH);  // where the harness runs
        CHECK(g_handled == 0);
    }
    CHECK(g_handled == 0);
    struct sigaction now {};
    sigaction(SIGWINCH, nullptr, &now);
    CHECK(now.sa_handler == SIG_DFL);
    sigset_t mask;
    pthread_sigmask(SIG_SETMASK, nullptr, &mask);
    CHECK(sigismember(&mask, SIGWINCH) == 0);
}
