#pragma once
// Reads a call's watched outputs' sample (poison_watch.hpp) as it stands: one warp on a non-blocking stream
// of the judge's own (no stream of solve's orders it behind its work) gathers the sampled words into
// pinned memory, waited for. The device timer reads it before its host clock stops, so that whatever
// delays the sample (a helper's kernel holding the SMs) is timed, and again once the outputs were shipped.
#include "checks/poison_watch.hpp"
#include "device/cuda_resources.hpp"

#include <cstdint>

namespace gpujudge {

class output_sample {
public:
    output_sample();
    // Copies the sample of `watch` (its seed's words) into `h_words` (kSampleWords). False, and nothing
    // thrown, where the device cannot run it: a call that failed left a sticky error, which is its verdict.
    bool read(const poison_watch& watch, std::uint32_t* h_words);

private:
    pinned_host_allocation words_;
    cuda_stream stream_{cudaStreamNonBlocking};
};

}  // namespace gpujudge
