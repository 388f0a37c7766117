#include "generator.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

namespace gpujudge {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// 53 random bits mapped to [0, 1): the mapping is ours, so results do not depend on the C++ library.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Fills elements [begin, end) of one chunk; each chunk has its own engine so threads agree with one thread.
void fill_chunk(const generator_spec& gen, const std::vector<double>& args, std::uint64_t chunk_seed,
                std::size_t begin, std::size_t end, host_array& out) {
    std::mt19937_64 rng(chunk_seed);
    for (std::size_t i = begin; i < end; ++i) {
        double v = 0;
        switch (gen.kind) {
            case generator_kind::uniform: v = args[0] + (args[1] - args[0]) * unit(rng); break;
            case generator_kind::normal: {
                const double u1 = 1.0 - unit(rng), u2 = unit(rng);
                v = args[0] + args[1] * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
                break;
            }
            case generator_kind::integers: {
                const auto lo = static_cast<long long>(std::ceil(args[0]));
                const auto span = static_cast<unsigned long long>(static_cast<long long>(std::floor(args[1])) - lo + 1);
                v = static_cast<double>(lo + static_cast<long long>(rng() % span));
                break;
            }
            case generator_kind::constant: v = args[0]; break;
            case generator_kind::cycle: v = gen.values[i % gen.values.size()]; break;
            case generator_kind::ramp: v = args[0] + static_cast<double>(i) * args[1]; break;
            case generator_kind::literal: v = gen.values[i]; break;
        }
        out.set(i, v);
    }
}

}  // namespace

void generate(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed, std::uint64_t stream,
              host_array& out) {
    std::vector<double> args;
    for (const auto& arg : gen.args) args.push_back(evaluate(arg, scalars));
    const std::size_t n = out.size();
    const std::size_t num_chunks = (n + kChunk - 1) / kChunk;
    const std::uint64_t base = splitmix64(splitmix64(seed) ^ (stream * 0xD1B54A32D192ED03ull));
    auto work = [&](std::size_t first_chunk, std::size_t step) {
        for (std::size_t c = first_chunk; c < num_chunks; c += step)
            fill_chunk(gen, args, splitmix64(base + c), c * kChunk, std::min(n, (c + 1) * kChunk), out);
    };
    const std::size_t num_threads =
        std::min<std::size_t>(num_chunks, std::max(1u, std::thread::hardware_concurrency()));
    if (num_threads <= 1) {
        work(0, 1);
        return;
    }
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < num_threads; ++t) threads.emplace_back(work, t, num_threads);
    for (auto& thread : threads) thread.join();
}

}  // namespace gpujudge
