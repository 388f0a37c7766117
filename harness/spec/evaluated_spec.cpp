#include "spec/evaluated_spec.hpp"

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

}  // namespace gpujudge
