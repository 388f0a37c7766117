#include "test_data.hpp"

#include "generator.hpp"

namespace gpujudge {

std::vector<long long> extents_of(const parameter& pointer, const scalar_values& scalars) {
    std::vector<long long> extents;
    for (const auto& extent : pointer.shape) extents.push_back(evaluate_count(extent, scalars));
    return extents;
}

tolerance tolerance_for(const problem_spec& spec, const parameter& output, const scalar_values& scalars) {
    auto it = spec.tolerance.find(output.name);
    if (it == spec.tolerance.end()) return {};
    return {evaluate(it->second.atol, scalars), evaluate(it->second.rtol, scalars)};
}

test_data prepare_test(const problem_spec& spec, const test_spec& test, const c_function& reference) {
    return prepare_test(spec, test, reference, test.seed);
}

test_data generate_inputs(const problem_spec& spec, const test_spec& test, std::uint64_t seed) {
    test_data data;
    data.test = &test;
    data.scalars = test.scalars;
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        host_array values(param.type, spec.element_count(param, data.scalars));
        generate(spec.generator_for(test, param), data.scalars, seed, i, values);
        data.inputs.emplace(param.name, std::move(values));
    }
    return data;
}

test_data prepare_test(const problem_spec& spec, const test_spec& test, const c_function& reference,
                       std::uint64_t seed) {
    test_data data = generate_inputs(spec, test, seed);
    if (test.kind == test_kind::example) {
        for (const auto& [name, values] : test.expected) {
            const parameter& param = *spec.find_parameter(name);
            host_array expected(param.type, values.size());
            for (std::size_t i = 0; i < values.size(); ++i) expected.set(i, values[i]);
            data.expected.emplace(name, std::move(expected));
        }
    } else {
        data.expected = run_on_host(spec, data, reference);
    }
    return data;
}

std::map<std::string, host_array> run_on_host(const problem_spec& spec, const test_data& data,
                                              const c_function& function) {
    std::map<std::string, host_array> buffers;
    std::vector<void*> pointers(spec.params.size(), nullptr);
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer) continue;
        auto input = data.inputs.find(param.name);
        host_array buffer = input != data.inputs.end() ? input->second
                                                       : host_array(param.type, spec.element_count(param, data.scalars));
        pointers[i] = buffers.emplace(param.name, std::move(buffer)).first->second.data();
    }
    function.call(pointers, data.scalars);
    std::map<std::string, host_array> outputs;
    for (const auto& param : spec.params)
        if (param.is_pointer && param.is_output()) outputs.emplace(param.name, std::move(buffers.at(param.name)));
    return outputs;
}

std::vector<comparison> compare_outputs(const problem_spec& spec, const test_data& data,
                                        const std::map<std::string, host_array>& got) {
    std::vector<comparison> failures;
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        comparison result = compare_output(param.name, data.expected.at(param.name), got.at(param.name),
                                           tolerance_for(spec, param, data.scalars), extents_of(param, data.scalars));
        if (!result.passed()) failures.push_back(std::move(result));
    }
    return failures;
}

}  // namespace gpujudge
