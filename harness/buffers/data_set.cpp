#include "buffers/data_set.hpp"

#include "inputs/generator.hpp"

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

input_set::input_set(const problem_spec& spec, memory_space& space, const test_spec& test, const data_set_spec& data) {
    buffers_.reserve(spec.params.size());
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        const std::size_t count = spec.element_count(param, test.scalars);
        guarded_buffer& buffer = buffers_.emplace_back(space, count * element_size(param.type));
        space.generate(buffer.data(), params_for(spec, test, data.seed, i), param.type, count);
        std::vector<std::uint64_t> h_indices;
        std::vector<std::uint32_t> h_bits;
        for (const auto& change : data.changes)
            if (change.param == i) h_indices.push_back(change.index), h_bits.push_back(change.bits);
        space.scatter(buffer.data(), h_indices.data(), h_bits.data(), h_indices.size());
        sources_[param.name] = buffer.data();
    }
}

}  // namespace gpujudge
