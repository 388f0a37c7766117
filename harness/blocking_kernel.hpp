#pragma once
// Holds back the legacy default stream until the host has queued a whole call (nvbench's
// blocking kernel): the start event, solve's kernels and the stop event then run back to back,
// so the host's launch latency — a few µs that vary from process to process — is not timed. It
// fills every SM while it holds, so work solve queues on streams of its own cannot start early
// either: no call gets a head start on the start event.
#include "cuda_resources.hpp"

namespace gpujudge {

class blocking_kernel {
public:
    blocking_kernel();
    // Launches the spinning kernel on the legacy default stream. If it is not released within
    // the timeout (solve synchronised on the device, which waits for the spinner) it gives up.
    void block();
    void release();
    // Whether the last block ended by its timeout instead of a release.
    bool timed_out() const;

private:
    pinned_host_allocation flags_;  // [0]: released, [1]: timed out; written by both sides
    device_allocation released_;    // the generation block 0 last saw released, for the other blocks
    unsigned generation_ = 0;       // of the last block(); the word holds the one before it
    int blocks_;                    // resident blocks that take every SM's thread slots
};

}  // namespace gpujudge
