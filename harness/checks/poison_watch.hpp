#pragma once
// The outputs a timed call must still find holding the judge's poison when solve is called. An
// answer already there was made outside the call (a helper thread, a timer's handler, a process
// with the buffers mapped) and cannot be timed. A secret sample of each output's 4-byte words is
// read just before solve: on the device by the hold (blocking_kernel.cu), which alone can read
// while nothing of solve's runs; on the host by the host timer. A write of a few elements can slip
// past one call's 256 samples per output, but not past every call of a run.
#include "inputs/counter_rng.hpp"

#include <cstdint>

namespace gpujudge {

constexpr int kMaxWatchedOutputs = 8;  // the first ones of a problem with more
constexpr int kWatchLanes = 32;        // one warp reads the sample
constexpr int kWatchWordsPerLane = 8;

struct watched_output {
    const std::uint32_t* words = nullptr;
    std::uint64_t num_words = 0;  // whole 4-byte words: poison is a byte pattern, whatever the type
    std::uint32_t poison = 0;
};

// One call's outputs and the seed its sample is drawn with: plain data, read by the hold's kernel.
struct poison_watch {
    watched_output outputs[kMaxWatchedOutputs];
    int num_outputs = 0;
    std::uint64_t seed = 0;
};

// The first sampled word found without its poison.
struct early_write {
    int output = 0;  // index in poison_watch::outputs
    std::uint64_t word = 0;
    std::uint32_t value = 0;
};

// Word `k` of lane `lane`'s part of output `output`'s sample: the first and last words always, the
// others drawn from the seed.
GJ_HD inline std::uint64_t sampled_word(std::uint64_t seed, int output, int lane, int k, std::uint64_t num_words) {
    if (lane == 0 && k < 2) return k == 0 ? 0 : num_words - 1;
    const philox_block bits =
        philox4x32_10(static_cast<std::uint32_t>(output), static_cast<std::uint32_t>(lane * kWatchWordsPerLane + k), 0,
                      0, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
    return rng_detail::bits64(bits) % num_words;
}

}  // namespace gpujudge
