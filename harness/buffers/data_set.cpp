#include "buffers/data_set.hpp"

#include "inputs/generator.hpp"

#include <algorithm>

namespace gpujudge {

namespace {

generator_params params_for(const problem_spec& spec, const test_spec& test, std::uint64_t seed, std::uint32_t param) {
    const parameter& input = spec.params.at(param);
    return make_generator_params(spec.generator_for(test, input), test.scalars, seed, param);
}

}  // namespace

input_elements::input_elements(const problem_spec& spec, const test_spec& test, std::uint32_t param)
    : params_(params_for(spec, test, test.seed, param)), type_(spec.params.at(param).type), param_(param) {}

std::uint32_t input_elements::bits(std::uint64_t seed, std::uint64_t index) const {
    generator_params params = params_;
    params.key = generator_key(seed, param_);
    return generated_bits(params, type_, index);
}

std::map<std::string, host_array> host_inputs(const problem_spec& spec, const test_spec& test,
                                              const data_set_spec& data) {
    std::map<std::string, host_array> inputs;
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        host_array values(param.type, spec.element_count(param, test.scalars));
        generate(spec.generator_for(test, param), test.scalars, data.seed, i, values);
        inputs.emplace(param.name, std::move(values));
    }
    for (const auto& change : data.changes)
        inputs.at(spec.params.at(change.param).name).set_bits(change.index, change.bits);
    return inputs;
}

input_set::input_set(const problem_spec& spec, memory_space& space, const test_spec& test, const data_set_spec& data)
    : space_(&space) {
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        std::vector<element_change> changes;
        for (const auto& change : data.changes)
            if (change.param == i) changes.push_back(change);
        std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
        input made{params_for(spec, test, data.seed, i), param.type, spec.element_count(param, test.scalars), {}, {}};
        for (const auto& change : changes) {
            made.change_indices.push_back(change.index);
            made.change_bits.push_back(change.bits);
        }
        inputs_.emplace(param.name, std::move(made));
    }
}

const input_set::input& input_set::at(const parameter& param) const {
    return inputs_.at(param.name);
}

void input_set::write(const parameter& param, void* dst) const {
    const input& made = at(param);
    space_->generate(dst, made.params, made.type, made.num_items);
    space_->scatter(dst, made.change_indices.data(), made.change_bits.data(), made.change_indices.size());
}

std::optional<std::size_t> input_set::first_change(const parameter& param, const void* now) const {
    const input& made = at(param);
    return space_->first_ungenerated(now, made.params, made.type, made.num_items, made.change_indices.data(),
                                     made.change_bits.data(), made.change_indices.size());
}

double input_set::original_value(const parameter& param, std::size_t index) const {
    const input& made = at(param);
    const auto change = std::lower_bound(made.change_indices.begin(), made.change_indices.end(), index);
    host_array one(made.type, 1);
    if (change != made.change_indices.end() && *change == index)
        one.set_bits(0, made.change_bits[change - made.change_indices.begin()]);
    else
        one.set_bits(0, generated_bits(made.params, made.type, index));
    return one.value(0);
}

}  // namespace gpujudge
