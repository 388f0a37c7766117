#pragma once
// Signals around a call of solve. A handler the submission installs could run inside the harness
// once solve has returned (at a fault it provokes in the harness's code, at a signal it arranged to
// arrive there), where no clock runs and the device is held back. So every signal stays blocked
// from solve's return until the handlers the process had before the library was loaded are back.
// A fault there is then a crash, never a handler's work.
namespace gpujudge {

// Before the submission's library (or Python file) is loaded: the handlers to put back after each call.
void keep_signal_handlers();

// One call's: made before the call, solve_returned() as solve returns; its end puts the kept
// handlers back (when kept), then the mask from before the call.
class solve_signals {
public:
    solve_signals();
    ~solve_signals();
    solve_signals(const solve_signals&) = delete;
    solve_signals& operator=(const solve_signals&) = delete;
    void solve_returned();
};

}  // namespace gpujudge
