#include "process/stop_signals.hpp"

#include "base/temp_dir.hpp"
#include "process/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <thread>

namespace gpujudge {

namespace {

std::mutex g_stop_mutex;
std::function<void()> g_next_stop;
std::string g_stop_message;

sigset_t stop_signal_set() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, signal);
    return set;
}

// Quiet first: a verdict the kill would cause ("killed by SIGKILL") is not one. Then the children,
// which may be writing into the folders, then the folders; then the signal's own default ending,
// so that the shell sees what it sent (exit status 128 + N).
[[noreturn]] void end_by(int signal) {
    std::fflush(stdout);  // this thread is no signal handler: a redirected stdout keeps what was printed
    {
        std::lock_guard<std::mutex> lock(g_stop_mutex);
        if (!g_stop_message.empty()) {
            std::fputs(g_stop_message.c_str(), stderr);
            std::fflush(stderr);
        }
    }
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    kill_children_for_good();
    remove_temp_dirs_for_good();
    ::signal(signal, SIG_DFL);
    const sigset_t set = stop_signal_set();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(signal);
    _exit(128 + signal);  // not reached: the default action of each of these signals ends the process
}

void wait_for_stop_signals(sigset_t set) {
    for (;;) {
        int signal = 0;
        if (sigwait(&set, &signal) != 0) continue;
        std::function<void()> stop;
        {
            std::lock_guard<std::mutex> lock(g_stop_mutex);
            stop.swap(g_next_stop);
        }
        if (!stop) end_by(signal);
        stop();
    }
}

}  // namespace

void handle_stop_signals() {
    const sigset_t set = stop_signal_set();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(wait_for_stop_signals, set).detach();
}

void set_stop_message(std::string message) {
    std::lock_guard<std::mutex> lock(g_stop_mutex);
    g_stop_message = std::move(message);
}

void on_next_stop_signal(std::function<void()> stop) {
    std::lock_guard<std::mutex> lock(g_stop_mutex);
    g_next_stop = std::move(stop);
}

}  // namespace gpujudge
