#pragma once
// The outputs a timed call must still find holding the judge's poison when solve is called. An
// answer already there was made outside the call (a helper thread, a timer's handler, a process
// with the buffers mapped) and cannot be timed. A secret sample of each output's 4-byte words is
// read just before solve: on the device by the hold (blocking_kernel.cu), which alone can read
// while nothing of solve's runs; on the host by the host timer. A write of a few elements can slip
// past one call's 256 samples per output, but not past every call of a run.
#include "inputs/counter_rng.hpp"

#include <cstdint>
#include <optional>

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

// The same sample read again as the call's clock stops, after its synchronise, and once more after its
// outputs were shipped: a word that changed between the two was written after the clock, by work
// outside the call (a helper thread let go as solve returned, or one that held up the runner on a lock
// of its own between the call and the shipping) that the clock never saw.
constexpr int kSampleWords = kMaxWatchedOutputs * kWatchLanes * kWatchWordsPerLane;

// Where word `k` of lane `lane`'s part of output `output`'s sample sits in a sample of kSampleWords.
GJ_HD inline int sample_slot(int output, int lane, int k) {
    return (output * kWatchLanes + lane) * kWatchWordsPerLane + k;
}

// A sampled word that changed after the clock stopped.
struct late_write {
    int output = 0;  // index in poison_watch::outputs
    std::uint64_t word = 0;
    std::uint32_t at_finish = 0;  // as the clock stopped
    std::uint32_t later = 0;      // once the outputs were shipped
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

// Calls visit(output, slot, word) for each word of `watch`'s sample (its seed's), output by output and
// lane by lane, the order the hold's check reads it in, until visit returns false.
template <typename Visit>
void for_each_sampled_word(const poison_watch& watch, Visit&& visit) {
    for (int o = 0; o < watch.num_outputs; ++o)
        for (int lane = 0; lane < kWatchLanes; ++lane)
            for (int k = 0; k < kWatchWordsPerLane; ++k)
                if (!visit(o, sample_slot(o, lane, k),
                           sampled_word(watch.seed, o, lane, k, watch.outputs[o].num_words)))
                    return;
}

// The first word of `watch`'s sample that differs between `at_finish` and `later` (kSampleWords each).
inline std::optional<late_write> first_change(const poison_watch& watch, const std::uint32_t* at_finish,
                                              const std::uint32_t* later) {
    std::optional<late_write> found;
    for_each_sampled_word(watch, [&](int output, int slot, std::uint64_t word) {
        if (at_finish[slot] != later[slot]) found = late_write{output, word, at_finish[slot], later[slot]};
        return !found;
    });
    return found;
}

}  // namespace gpujudge
