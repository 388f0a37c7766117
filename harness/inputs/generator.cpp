#include "inputs/generator.hpp"

#include <algorithm>
#include <cstring>
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

void fill_range(const generator_params& params, element_type type, unsigned char* h_out, std::size_t begin,
                std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t bits = stored_bits(generated_value(params, i), type);
        std::memcpy(h_out + element_size(type) * i, &bits, sizeof bits);
    }
}

}  // namespace

generator_params make_generator_params(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed,
                                       std::uint64_t stream) {
    generator_params params;
    params.kind = gen.kind;
    if (gen.args.size() > 0) params.a = evaluate(gen.args[0], scalars);
    if (gen.args.size() > 1) params.b = evaluate(gen.args[1], scalars);
    params.values = gen.values.data();
    params.num_values = gen.values.size();
    params.key = generator_key(seed, stream);
    return params;
}

std::uint64_t generator_key(std::uint64_t seed, std::uint64_t stream) {
    return splitmix64(splitmix64(seed) ^ (stream * 0xD1B54A32D192ED03ull));
}

std::uint32_t generated_bits(const generator_params& params, element_type type, std::uint64_t index) {
    return stored_bits(generated_value(params, index), type);
}

void fill_generated(const generator_params& params, element_type type, void* h_out, std::size_t num_items,
                    unsigned num_threads) {
    auto* bytes = static_cast<unsigned char*>(h_out);
    const std::size_t num_chunks = (num_items + kChunk - 1) / kChunk;
    if (num_threads == 0) num_threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t used = std::min<std::size_t>(num_chunks, num_threads);
    auto work = [&](std::size_t first_chunk) {
        for (std::size_t c = first_chunk; c < num_chunks; c += used)
            fill_range(params, type, bytes, c * kChunk, std::min(num_items, (c + 1) * kChunk));
    };
    if (used <= 1) {
        fill_range(params, type, bytes, 0, num_items);
        return;
    }
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < used; ++t) threads.emplace_back(work, t);
    for (auto& thread : threads) thread.join();
}

void generate(const generator_spec& gen, const scalar_values& scalars, std::uint64_t seed, std::uint64_t stream,
              host_array& out) {
    fill_generated(make_generator_params(gen, scalars, seed, stream), out.type(), out.data(), out.size());
}

}  // namespace gpujudge
