#include "device/output_sample.hpp"

#include <cstring>

namespace gpujudge {

namespace {

__global__ void gather_sample(poison_watch watch, std::uint32_t* words) {
    const int lane = static_cast<int>(threadIdx.x);
    for (int o = 0; o < watch.num_outputs; ++o) {
        const watched_output& output = watch.outputs[o];
        for (int k = 0; k < kWatchWordsPerLane; ++k)
            words[sample_slot(o, lane, k)] = output.words[sampled_word(watch.seed, o, lane, k, output.num_words)];
    }
}

}  // namespace

output_sample::output_sample() : words_(kSampleWords * sizeof(std::uint32_t)) {}

bool output_sample::read(const poison_watch& watch, std::uint32_t* h_words) {
    if (watch.num_outputs == 0) return false;
    gather_sample<<<1, kWatchLanes, 0, stream_.get()>>>(watch, static_cast<std::uint32_t*>(words_.device()));
    if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(stream_.get()) != cudaSuccess) return false;
    std::memcpy(h_words, words_.host(), kSampleWords * sizeof(std::uint32_t));
    return true;
}

}  // namespace gpujudge
