#include "checks/test_data.hpp"

#include "spec/element_match.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <future>
#include <stdexcept>
#include <thread>

namespace gpujudge {

std::map<std::string, void*> pointers_of(named_arrays& arrays) {
    std::map<std::string, void*> pointers;
    for (auto& [name, values] : arrays) pointers[name] = values.data();
    return pointers;
}

named_arrays run_on_host(const problem_spec& spec, const scalar_values& scalars,
                         const std::map<std::string, void*>& inputs, const solve_function& function) {
    named_arrays outputs, missing;  // missing: an input not given (zeros)
    std::vector<void*> pointers(spec.params.size(), nullptr);
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer) continue;
        const auto input = inputs.find(param.name);
        if (!param.is_output() && input != inputs.end()) {
            pointers[i] = input->second;
            continue;
        }
        host_array buffer(param.type, spec.element_count(param, scalars));
        if (input != inputs.end()) std::memcpy(buffer.data(), input->second, buffer.size_bytes());
        pointers[i] =
            (param.is_output() ? outputs : missing).emplace(param.name, std::move(buffer)).first->second.data();
    }
    if (auto raised = function.run(pointers, scalars)) throw std::runtime_error(*raised);
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

namespace {

// Whether elements [begin, end) of `have` match `want`.
bool range_matches(const host_array& want, const host_array& have, const tolerance& tol, std::size_t begin,
                   std::size_t end) {
    const bool is_float = want.type() == element_type::f32;
    for (std::size_t i = begin; i < end; ++i)
        if (is_float ? !float_matches(want.value(i), have.value(i), tol.atol, tol.rtol)
                     : !int_matches(want.bits(i), have.bits(i)))
            return false;
    return true;
}

// Large outputs are checked on every core: the judge checks every timed call's outputs before the
// next call, and 10M elements on one core took longer than the call itself.
constexpr std::size_t kParallelFrom = std::size_t{1} << 20;

bool array_matches(const host_array& want, const host_array& have, const tolerance& tol) {
    const std::size_t count = want.size();
    const std::size_t workers = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), 16);
    if (count < kParallelFrom || workers == 1) return range_matches(want, have, tol, 0, count);
    std::vector<std::future<bool>> parts;
    const std::size_t chunk = (count + workers - 1) / workers;
    for (std::size_t begin = 0; begin < count; begin += chunk)
        parts.push_back(std::async(std::launch::async, range_matches, std::cref(want), std::cref(have), std::cref(tol),
                                   begin, std::min(count, begin + chunk)));
    bool all = true;
    for (auto& part : parts) all = part.get() && all;  // every part joined before returning
    return all;
}

}  // namespace

bool passes_as(const problem_spec& spec, const scalar_values& scalars, const named_arrays& expected,
               const named_arrays& got) {
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        if (!array_matches(expected.at(param.name), got.at(param.name), tolerance_for(spec, param, scalars)))
            return false;
    }
    return true;
}

}  // namespace gpujudge
