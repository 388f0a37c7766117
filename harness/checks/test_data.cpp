#include "checks/test_data.hpp"

#include "spec/element_match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <future>
#include <optional>
#include <stdexcept>
#include <thread>

namespace gpujudge {

namespace {

constexpr unsigned char kReferenceGuardByte = 0xCD;
constexpr std::size_t kReferenceGuardBytes = 64 * 1024;  // as solve's

void fill_words(host_array& array, std::uint32_t word) {
    for (std::size_t i = 0; i < array.size(); ++i) array.set_bits(i, word);
}

// The first guard byte the call changed, as "'name' (the first element past its end, ...)".
std::optional<std::string> overrun(const std::string& name, const host_array& array) {
    const auto* guard = static_cast<const unsigned char*>(array.data()) + array.size_bytes();
    for (std::size_t i = 0; i < array.spare_bytes(); ++i) {
        if (guard[i] == kReferenceGuardByte) continue;
        return fmt::format("the reference wrote past the end of '{}' (element [{}] of a buffer of {})", name,
                           array.size() + i / element_size(array.type()), array.size());
    }
    return std::nullopt;
}

}  // namespace

named_arrays run_on_host(const problem_spec& spec, const scalar_values& scalars,
                         const std::map<std::string, void*>& inputs, const solve_function& function, output_fill fill) {
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
        host_array buffer(param.type, spec.element_count(param, scalars), kReferenceGuardBytes);
        std::memset(static_cast<unsigned char*>(buffer.data()) + buffer.size_bytes(), kReferenceGuardByte,
                    buffer.spare_bytes());
        if (input != inputs.end())
            std::memcpy(buffer.data(), input->second, buffer.size_bytes());
        else if (param.is_output())
            fill_words(buffer, param.type == element_type::f32 ? fill.f32 : fill.i32);
        pointers[i] =
            (param.is_output() ? outputs : missing).emplace(param.name, std::move(buffer)).first->second.data();
    }
    if (auto raised = function.run(pointers, scalars)) throw std::runtime_error(*raised);
    for (const auto& [name, array] : outputs)
        if (auto past = overrun(name, array)) throw reference_fault(*past);
    return outputs;
}

namespace {

bool still_holds(const host_array& array, std::size_t i, output_fill fill) {
    return array.bits(i) == (array.type() == element_type::f32 ? fill.f32 : fill.i32);
}

// The first element of a fully written output (not in-out) that holds `fill` in `first` and, for
// ints, where `again` is given, kReferenceFillAgain in it: "'name'[i]".
std::optional<std::string> first_unwritten(const problem_spec& spec, const named_arrays& first,
                                           const named_arrays* again) {
    for (const auto& param : spec.params) {
        if (!param.is_pointer || param.role != param_role::out) continue;
        const host_array& array = first.at(param.name);
        for (std::size_t i = 0; i < array.size(); ++i) {
            if (!still_holds(array, i, kReferenceFill)) continue;
            if (array.type() == element_type::i32 &&
                (!again || !still_holds(again->at(param.name), i, kReferenceFillAgain)))
                continue;
            return fmt::format("'{}'[{}] was never written", param.name, i);
        }
    }
    return std::nullopt;
}

// Whether an int output holds the first fill word anywhere: only then is a second run needed.
bool int_output_holds_fill(const problem_spec& spec, const named_arrays& outputs) {
    for (const auto& param : spec.params) {
        if (!param.is_pointer || param.role != param_role::out || param.type != element_type::i32) continue;
        const host_array& array = outputs.at(param.name);
        for (std::size_t i = 0; i < array.size(); ++i)
            if (still_holds(array, i, kReferenceFill)) return true;
    }
    return false;
}

// Whether every float input element is finite; a literal .nan or .inf in the spec may make one not.
bool inputs_finite(const problem_spec& spec, const scalar_values& scalars, const std::map<std::string, void*>& inputs) {
    for (const auto& param : spec.params) {
        const auto input = inputs.find(param.name);
        if (!param.is_pointer || param.type != element_type::f32 || input == inputs.end()) continue;
        const float* values = static_cast<const float*>(input->second);
        if (!std::all_of(values, values + spec.element_count(param, scalars), [](float v) { return std::isfinite(v); }))
            return false;
    }
    return true;
}

// The first NaN or infinity in a float output, where every input is finite: arithmetic on finite
// inputs that gives one (0/0, log of 0) is the reference's bug, which learners would be told to copy.
std::optional<std::string> first_not_finite(const problem_spec& spec, const scalar_values& scalars,
                                            const std::map<std::string, void*>& inputs, const named_arrays& outputs) {
    for (const auto& [name, array] : outputs) {
        if (array.type() != element_type::f32) continue;
        const float* values = array.as<float>();
        const float* bad = std::find_if(values, values + array.size(), [](float v) { return !std::isfinite(v); });
        if (bad == values + array.size() || !inputs_finite(spec, scalars, inputs)) continue;
        const auto count = std::count_if(bad, values + array.size(), [](float v) { return !std::isfinite(v); });
        return fmt::format(
            "'{}'[{}] is {} ({} of {} elements of '{}' are not finite), though every input is finite: "
            "a reference's outputs must be finite",
            name, bad - values,
            std::isnan(*bad) ? "NaN"
            : *bad > 0       ? "inf"
                             : "-inf",
            count, array.size(), name);
    }
    return std::nullopt;
}

}  // namespace

named_arrays run_reference_on_host(const problem_spec& spec, const scalar_values& scalars,
                                   const std::map<std::string, void*>& inputs, const solve_function& function) {
    named_arrays outputs = run_on_host(spec, scalars, inputs, function, kReferenceFill);
    std::optional<named_arrays> again;
    if (int_output_holds_fill(spec, outputs)) again = run_on_host(spec, scalars, inputs, function, kReferenceFillAgain);
    if (auto unwritten = first_unwritten(spec, outputs, again ? &*again : nullptr)) throw reference_fault(*unwritten);
    if (auto not_finite = first_not_finite(spec, scalars, inputs, outputs)) throw reference_fault(*not_finite);
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
