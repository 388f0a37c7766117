#pragma once
// Holds back the legacy default stream until the host has queued a whole call (nvbench's
// blocking kernel): the start event, solve's kernels and the stop event then run back to back,
// so the host's launch latency — a few µs that vary from process to process — is not timed. It
// fills every SM while it holds, so work solve queues on streams of its own cannot start early
// either: no call gets a head start on the start event. block() returns only once every block of it
// is resident, so that this holds from solve's first instruction on; and, given outputs to watch,
// once its block 0 has read their sample (poison_watch.hpp): nothing of solve's has run by then.
#include "checks/poison_watch.hpp"
#include "device/cuda_resources.hpp"

#include <optional>
#include <string>

namespace gpujudge {

class blocking_kernel {
public:
    blocking_kernel();
    // Launches the spinning kernel on the legacy default stream and waits until all its blocks are
    // resident, then until it has checked `watch` (when given and not empty). If it is not released
    // within the timeout (solve synchronised on the device, which waits for the spinner) it gives up.
    void block(const poison_watch* watch = nullptr);
    void release();
    // The same check of `watch` by one warp, waited for: for a call not held back.
    void check(const poison_watch& watch);
    // Why the last hold did not hold, to follow "call N " in a message: empty when it held.
    std::string failure() const;
    // The host time of the last block()'s launch: a launch with the CPU's caches as cold as solve's.
    double launch_ms() const { return launch_ms_; }
    // A watched word the last hold found without its poison.
    std::optional<early_write> written_early() const;

private:
    // Puts `watch` where the kernels read it, with no early write found yet.
    void post(const poison_watch& watch);

    pinned_host_allocation flags_;  // hold_flags (blocking_kernel.cu)
    device_allocation counters_;    // [0]: the generation block 0 last saw released, [1]: blocks resident
    unsigned generation_ = 0;       // of the last block(); counters_[0] holds the one before it
    int blocks_;                    // resident blocks that take every SM's thread slots
    bool resident_ = true;          // the last block() saw every block resident in time
    bool checked_ = true;           // ...and its watch checked in time
    double launch_ms_ = 0;
};

}  // namespace gpujudge
