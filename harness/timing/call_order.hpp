#pragma once
// The secret order of a timed run's calls: which data set and which buffer set each call gets.
// The runner draws it to load each call, the judge draws it again to know which expected outputs
// each call's shipped outputs must match: the same seed, the same sequence on both sides.
#include <cstddef>
#include <cstdint>
#include <random>

namespace gpujudge {

// Draws indices in [0, count), never the same twice in a row (when count > 1).
class unrepeated_draws {
public:
    unrepeated_draws(std::uint64_t seed, std::size_t count) : rng_(seed), count_(count) {}
    std::size_t next() {
        if (count_ > 1) {
            const std::size_t step = 1 + std::uniform_int_distribution<std::size_t>(0, count_ - 2)(rng_);
            last_ = (last_ + step) % count_;
        }
        return last_;
    }

private:
    std::mt19937_64 rng_;
    std::size_t count_;
    std::size_t last_ = 0;
};

// The draws of a timed run: data sets from the order seed, buffer sets from a second stream of it.
inline unrepeated_draws data_set_order(std::uint64_t order_seed, std::size_t count) {
    return {order_seed, count};
}
inline unrepeated_draws buffer_set_order(std::uint64_t order_seed, std::size_t count) {
    return {order_seed ^ 0x9E3779B97F4A7C15ull, count};
}

}  // namespace gpujudge
