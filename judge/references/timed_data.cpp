#include "references/timed_data.hpp"

#include "base/problem_error.hpp"
#include "checks/test_data.hpp"
#include "runner/channel.hpp"
#include "spec/output_file.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace gpujudge {

namespace {

// Changes per variant, all tried in one reference job so that most tests need no second round: few changes
// hide best from a sampling cache (a sample of 0.1 % of the elements misses all 16 changed
// positions in 98 % of variants); more are needed where the tolerance swallows a few (a sum of
// 100M values). The fewest that tell the data sets apart win. More rounds, or more changes, cost
// more than they buy: every change travels to the runner and the reference as JSON, and 2^20 of
// them per variant made a submit wait 30 s for its timed data on an H100.
const std::vector<std::vector<std::size_t>> kRounds = {{16, 256, 4096}, {65536}};
constexpr int kValueDraws = 16;  // candidate values per position: the farthest from the original wins

struct input_ref {
    std::uint32_t param;
    std::uint64_t count;
    input_elements elements;    // the test's own generator: the values the variant starts from
    input_elements candidates;  // where replacement values come from
};

// Inputs that a variant can change, each with where its replacement values come from: the test's
// own generator, or, where the test holds the input constant, the problem's generator for it (the
// input's declared range), so that a constant-input test gets variants too. An input constant in
// both stays as it is.
std::vector<input_ref> changeable_inputs(const problem_spec& spec, const test_spec& test) {
    std::vector<input_ref> inputs;
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        const input_elements own(spec, test, i);
        if (spec.generator_for(test, param).kind != generator_kind::constant) {
            inputs.push_back({i, spec.element_count(param, test.scalars), own, own});
            continue;
        }
        const auto range = spec.default_inputs.find(param.name);
        if (range == spec.default_inputs.end() || range->second.kind == generator_kind::constant) continue;
        test_spec in_range = test;  // the problem's generator for this input, the test's scalars
        in_range.inputs.erase(param.name);
        inputs.push_back({i, spec.element_count(param, test.scalars), own, input_elements(spec, in_range, i)});
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
        const std::uint32_t original = input->elements.bits(test.seed, pick);
        std::optional<std::uint32_t> best;
        double best_distance = -1;
        for (int draw = 0; draw < kValueDraws; ++draw) {
            const std::uint64_t seed = secret();
            const std::uint64_t at = std::uniform_int_distribution<std::uint64_t>(0, input->count - 1)(secret);
            const std::uint32_t bits = input->candidates.bits(seed, at);
            const double distance = std::fabs(value_of(bits, type) - value_of(original, type));
            if (bits != original && distance > best_distance) best = bits, best_distance = distance;
        }
        if (best) data.changes.push_back({input->param, pick, *best});
    }
    return data;
}

// Whether either data set's expected outputs fail as the other's answer.
bool distinguishable(const problem_spec& spec, const test_spec& test, const named_arrays& a, const named_arrays& b) {
    return !passes_as(spec, test.scalars, a, b) && !passes_as(spec, test.scalars, b, a);
}

// One test's data sets while they are chosen: the kept ones with their outputs, and the others
// whose references were computed (fewest changes first).
struct choice {
    int index = 0;
    std::vector<input_ref> inputs;
    std::vector<timed_data_job> chosen;
    std::vector<named_arrays> outputs;
    std::vector<std::pair<timed_data_job, std::filesystem::path>> spare;

    // Candidates for another round, with more changes. Where the first told some variants apart, one
    // for each data set still missing. Where the tolerance swallowed a few thousand changes (a mean
    // of 100M values), one: 65536 changes, each the farthest of its draws from the value it replaces,
    // move such a mean past the tolerance, all of them the same way, so a second such variant would
    // not differ from the first by more than it. One that does tells a cache keyed on a sample of the
    // input, which would replay one answer for every data set, from a solve that reads its input.
    std::size_t another_round(std::size_t count) const {
        if (chosen.size() >= count) return 0;
        return chosen.size() > 1 ? count - chosen.size() : 1;
    }
};

// Keeps the candidates whose outputs no kept data set's pass for (and the reverse), fewest
// changes first, until each test has `count`.
void keep_distinguishable(const problem_spec& spec, std::vector<choice>& choices, std::size_t count,
                          const std::vector<reference_outputs::item>& candidates,
                          const std::vector<std::filesystem::path>& paths) {
    std::vector<std::size_t> order(candidates.size());
    for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return candidates[a].data.changes.size() < candidates[b].data.changes.size();
    });
    for (const std::size_t c : order) {
        choice& ch = *std::find_if(choices.begin(), choices.end(),
                                   [&](const choice& x) { return x.index == candidates[c].test; });
        const timed_data_job job{candidates[c].data};
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(ch.index));
        named_arrays candidate;
        bool unique = ch.chosen.size() < count;
        if (unique) candidate = read_outputs(paths[c], spec, test.scalars);
        for (std::size_t o = 0; unique && o < ch.outputs.size(); ++o)
            unique = distinguishable(spec, test, candidate, ch.outputs[o]);
        if (!unique) {
            ch.spare.emplace_back(job, paths[c]);
            continue;
        }
        ch.chosen.push_back(job);
        ch.outputs.push_back(std::move(candidate));
    }
}

// A benchmark that a solve could pass by writing the known answer without reading its inputs: the
// timed runs would time nothing but what the floor refuses.
std::string predictable(const problem_spec& spec, const test_spec& test, const std::string& why) {
    return fmt::format(
        "{}:{}: benchmark '{}': {}, so a solve that writes its answer without reading its inputs would pass "
        "every timed run; give it data whose answer depends on them",
        spec.yaml_path, test.line, test.name, why);
}

}  // namespace

std::mt19937_64 fresh_secret() {
    const channel_key key = channel_key::random();
    std::seed_seq seed(key.bytes().begin(), key.bytes().begin() + 32);
    return std::mt19937_64(seed);
}

data_set_spec own_data(const test_spec& test) {
    return {test.seed, {}};
}

std::vector<timed_test_data> choose_timed_data(const problem_spec& spec, const std::vector<int>& tests, int count,
                                               reference_outputs& references, std::mt19937_64& secret) {
    const std::size_t wanted = static_cast<std::size_t>(count);
    std::vector<reference_outputs::item> own;
    for (const int index : tests) own.push_back({index, own_data(spec.tests.at(static_cast<std::size_t>(index))), {}});
    const auto own_paths = references.ensure(own);
    std::vector<choice> choices;
    for (std::size_t t = 0; t < tests.size(); ++t) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(tests[t]));
        choice& ch = choices.emplace_back();
        ch.index = tests[t];
        ch.inputs = changeable_inputs(spec, test);
        ch.chosen.push_back({own_data(test)});
        ch.outputs.push_back(read_outputs(own_paths[t], spec, test.scalars));
        if (ch.inputs.empty())
            throw problem_error(
                predictable(spec, test, "every input is constant here and in the problem's generators"));
    }
    for (std::size_t round = 0; round < kRounds.size(); ++round) {
        std::vector<reference_outputs::item> candidates;
        for (const choice& ch : choices) {
            if (ch.inputs.empty()) continue;
            const test_spec& test = spec.tests.at(static_cast<std::size_t>(ch.index));
            const std::size_t slots = round == 0 ? wanted - ch.chosen.size() : ch.another_round(wanted);
            for (std::size_t slot = 0; slot < slots; ++slot)
                for (const std::size_t size : kRounds[round])
                    candidates.push_back({ch.index, variant(spec, test, ch.inputs, size, secret), {}});
        }
        if (candidates.empty()) break;
        keep_distinguishable(spec, choices, wanted, candidates, references.ensure(candidates, true));
    }
    std::vector<timed_test_data> chosen;
    for (choice& ch : choices) {
        // Variants the tolerance cannot tell apart (a mean of 100M values moves little when a few
        // change) still vary the data of the timed runs, and the floor (see benchmarking) refuses
        // an impossible time. Where no variant moved the answer at all, one answer passes them all: said
        // aloud, not refused, since a count of rare values (1000 matches in 100M) moves in some draws and
        // not in others (count_array_element on an H200), and a problem error would come and go with them.
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(ch.index));
        // With its own data alone kept, every variant made for the test is a spare.
        if (wanted > 1 && ch.chosen.size() < 2)
            spdlog::warn(predictable(spec, test,
                                     fmt::format("none of {} variants of its data (16 to 65536 elements changed) "
                                                 "changes its expected outputs beyond the tolerance",
                                                 ch.spare.size())));
        if (ch.chosen.size() < wanted && !ch.spare.empty())
            spdlog::info("{}: some timed data sets' outputs match another's within tolerance", test.name);
        for (std::size_t s = 0; ch.chosen.size() < wanted && s < ch.spare.size(); ++s) {
            ch.chosen.push_back(ch.spare[s].first);
            ch.outputs.push_back(read_outputs(ch.spare[s].second, spec, test.scalars));
        }
        std::string sizes;
        for (const auto& data : ch.chosen) sizes += fmt::format(" {}", data.data.changes.size());
        spdlog::debug("{}: timed data sets with{} changed elements", test.name, sizes);
        chosen.push_back({std::move(ch.chosen), std::move(ch.outputs)});
    }
    return chosen;
}

}  // namespace gpujudge
