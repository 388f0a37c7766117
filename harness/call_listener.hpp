#pragma once
// Hooks around one call of solve: the runner's time limit and the timers hang on them.
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
    // The last call waited on the device while held back, so the hold ran to its timeout.
    virtual bool blocking_timed_out() const { return false; }
};

}  // namespace gpujudge
