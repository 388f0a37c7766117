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
    virtual double host_ms() const = 0;
};

}  // namespace gpujudge
