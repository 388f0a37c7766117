#include "timed_data.hpp"

#include "output_file.hpp"
#include "sealed_channel.hpp"
#include "test_data.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <set>

namespace gpujudge {

namespace {

// Changes per variant, tried in rounds: few changes hide best from a sampling cache (a sample of
// 0.1 % of the elements hits one of 64 changed positions in 6 % of variants); more changes are
// needed where the tolerance swallows a few (a sum of 100M values).
const std::vector<std::vector<std::size_t>> kRounds = {{4, 64}, {256}};
constexpr int kValueDraws = 4;  // candidate values per position: the farthest from the original wins

struct input_ref {
    std::uint32_t param;
    std::uint64_t count;
};

// Inputs whose generator can give another value at a position (not a constant).
std::vector<input_ref> changeable_inputs(const problem_spec& spec, const test_spec& test) {
    std::vector<input_ref> inputs;
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        const generator_spec& gen = spec.generator_for(test, param);
        if (gen.kind == generator_kind::constant) continue;
        inputs.push_back({i, spec.element_count(param, test.scalars)});
    }
    return inputs;
}

double value_of(std::uint32_t bits, element_type type) {
    host_array one(type, 1);
    one.set_bits(0, bits);
    return one.value(0);
}

// A variant of the test's own data with `num_changes` elements replaced by values that the same
// generator gives elsewhere (so every element stays valid input).
data_set_spec variant(const problem_spec& spec, const test_spec& test, const std::vector<input_ref>& inputs,
                      std::size_t num_changes, std::mt19937_64& secret) {
    data_set_spec data = own_data(test);
    std::uint64_t total = 0;
    for (const auto& input : inputs) total += input.count;
    std::set<std::pair<std::uint32_t, std::uint64_t>> taken;
    for (std::size_t c = 0; c < num_changes && taken.size() < total; ++c) {
        std::uint64_t pick = std::uniform_int_distribution<std::uint64_t>(0, total - 1)(secret);
        const input_ref* input = &inputs.front();
        for (const auto& candidate : inputs) {
            if (pick < candidate.count) {
                input = &candidate;
                break;
            }
            pick -= candidate.count;
        }
        if (!taken.insert({input->param, pick}).second) continue;
        const element_type type = spec.params[input->param].type;
        const std::uint32_t original = input_bits(spec, test, test.seed, input->param, pick);
        std::optional<std::uint32_t> best;
        double best_distance = -1;
        for (int draw = 0; draw < kValueDraws; ++draw) {
            const std::uint64_t seed = secret();
            const std::uint64_t at = std::uniform_int_distribution<std::uint64_t>(0, input->count - 1)(secret);
            const std::uint32_t bits = input_bits(spec, test, seed, input->param, at);
            const double distance = std::fabs(value_of(bits, type) - value_of(original, type));
            if (bits != original && distance > best_distance) best = bits, best_distance = distance;
        }
        if (best) data.changes.push_back({input->param, pick, *best});
    }
    return data;
}

// Whether either data set's expected outputs fail as the other's answer.
bool distinguishable(const problem_spec& spec, const test_spec& test, const named_arrays& a, const named_arrays& b) {
    return !compare_outputs(spec, test.scalars, a, b).empty() && !compare_outputs(spec, test.scalars, b, a).empty();
}

}  // namespace

std::mt19937_64 fresh_secret() {
    const channel_key key = channel_key::random();
    std::seed_seq seed(key.bytes().begin(), key.bytes().begin() + 32);
    return std::mt19937_64(seed);
}

data_set_spec own_data(const test_spec& test) { return {test.seed, {}}; }

std::vector<timed_data_job> choose_timed_data(const problem_spec& spec, int index, int count,
                                              reference_outputs& references, std::mt19937_64& secret) {
    const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
    const auto own = references.ensure({{index, own_data(test)}});
    std::vector<timed_data_job> chosen{{own_data(test), own.front().string()}};
    std::vector<named_arrays> outputs{read_outputs(own.front(), spec, test.scalars)};
    const auto inputs = changeable_inputs(spec, test);
    if (inputs.empty()) {
        spdlog::info("{}: every input is constant; its timed runs use its own data only", test.name);
        return chosen;
    }
    std::vector<reference_outputs::item> fallback;
    for (const auto& sizes : kRounds) {
        const std::size_t needed = static_cast<std::size_t>(count) - chosen.size();
        if (needed == 0) break;
        std::vector<reference_outputs::item> candidates;
        for (std::size_t slot = 0; slot < needed; ++slot)
            for (const std::size_t size : sizes) candidates.push_back({index, variant(spec, test, inputs, size, secret)});
        const auto paths = references.ensure(candidates, true);
        for (std::size_t c = 0; c < candidates.size() && chosen.size() < static_cast<std::size_t>(count); ++c) {
            named_arrays candidate = read_outputs(paths[c], spec, test.scalars);
            bool unique = true;
            for (const auto& other : outputs) unique = unique && distinguishable(spec, test, candidate, other);
            if (!unique) continue;
            chosen.push_back({candidates[c].data, paths[c].string()});
            outputs.push_back(std::move(candidate));
        }
        if (!paths.empty()) fallback = {candidates.back()};
    }
    // No variant told apart from the others: its timed runs still vary the data, and the floor
    // (see benchmarking) refuses an impossible time.
    while (chosen.size() < static_cast<std::size_t>(count) && !fallback.empty()) {
        spdlog::info("{}: a timed data set's outputs match another's within tolerance", test.name);
        const auto paths = references.ensure(fallback, true);
        chosen.push_back({fallback.front().data, paths.front().string()});
    }
    return chosen;
}

}  // namespace gpujudge
