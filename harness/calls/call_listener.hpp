#pragma once
// Hooks around one call of solve: the runner's time limit and the timers hang on them.
#include "checks/poison_watch.hpp"

#include <optional>
#include <string>

namespace gpujudge {

class call_listener {
public:
    virtual ~call_listener() = default;
    virtual void before_call() {}
    virtual void after_return() {}  // solve returned; its device work may still run
    virtual void after_finish() {}  // every stream synchronised
};

// Times one call two ways: device events on the legacy default stream around it, and the host
// clock from just before the call until the whole device is synchronised.
class call_timer : public call_listener {
public:
    virtual double event_ms() const = 0;
    virtual double host_ms() const = 0;   // from before the call until every stream is synchronised
    virtual double queue_ms() const = 0;  // from before the call until solve returned
    virtual double solve_ms() const = 0;  // solve's own host time, from its call to its return
    // Device timers hold each call's work back until solve returns (see blocking_kernel.hpp), so
    // its launch latency stays outside the events. Off for a solve that synchronises.
    virtual void set_blocking(bool) {}
    // Why the last call was not held back as asked, empty when it was: it waited on the device while
    // held back (the hold ran to its timeout), or the hold did not take every SM in time.
    virtual std::string hold_failure() const { return {}; }
    // The host time of the timer's own launch before the call (the hold's), 0 when it launched none.
    virtual double launch_ms() const { return 0; }
    // The CPU time the process's other threads used since the timer's last call ended (or this one
    // started), to this one's end (thread_cpu.hpp): 0 where the timer does not read it.
    virtual double other_threads_ms() const { return 0; }
    // The outputs the next calls must find still poisoned when solve is called (poison_watch.hpp;
    // the timer draws each call's sample), and what the last call found written before it.
    virtual void watch(const poison_watch&) {}
    virtual std::optional<early_write> written_before_call() const { return std::nullopt; }
    // Reads the last call's sample again (once its outputs were shipped): a word that changed since the
    // clock stopped was written outside the call (poison_watch.hpp: late_write).
    virtual std::optional<late_write> written_after_call() { return std::nullopt; }
};

}  // namespace gpujudge
