#include "test_data.hpp"

#include "element_match.hpp"

#include <stdexcept>

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

named_arrays run_on_host(const problem_spec& spec, const scalar_values& scalars, named_arrays inputs,
                         const solve_function& function) {
    named_arrays buffers;
    std::vector<void*> pointers(spec.params.size(), nullptr);
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer) continue;
        auto input = inputs.find(param.name);
        host_array buffer = input != inputs.end() ? std::move(input->second)
                                                  : host_array(param.type, spec.element_count(param, scalars));
        pointers[i] = buffers.emplace(param.name, std::move(buffer)).first->second.data();
    }
    if (auto raised = function.run(pointers, scalars)) throw std::runtime_error(*raised);
    named_arrays outputs;
    for (const auto& param : spec.params)
        if (param.is_pointer && param.is_output()) outputs.emplace(param.name, std::move(buffers.at(param.name)));
    return outputs;
}

std::vector<comparison> compare_outputs(const problem_spec& spec, const scalar_values& scalars,
                                        const named_arrays& expected, const named_arrays& got) {
    std::vector<comparison> failures;
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        comparison result = compare_output(param.name, expected.at(param.name), got.at(param.name),
                                           tolerance_for(spec, param, scalars), extents_of(param, scalars));
        if (!result.passed()) failures.push_back(std::move(result));
    }
    return failures;
}

bool passes_as(const problem_spec& spec, const scalar_values& scalars, const named_arrays& expected,
               const named_arrays& got) {
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        const host_array& want = expected.at(param.name);
        const host_array& have = got.at(param.name);
        const tolerance tol = tolerance_for(spec, param, scalars);
        const bool is_float = want.type() == element_type::f32;
        for (std::size_t i = 0; i < want.size(); ++i)
            if (is_float ? !float_matches(want.value(i), have.value(i), tol.atol, tol.rtol)
                         : !int_matches(want.bits(i), have.bits(i)))
                return false;
    }
    return true;
}

}  // namespace gpujudge
