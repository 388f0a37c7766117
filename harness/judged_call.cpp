#include "judged_call.hpp"

#include "poison.hpp"

#include <fmt/format.h>

#include <cstring>

namespace gpujudge {

buffer_set::buffer_set(const problem_spec& spec, memory_space& space, const scalar_values& scalars)
    : spec_(&spec), space_(&space), pointers_(spec.params.size(), nullptr) {
    buffers_.reserve(spec.params.size());
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer) continue;
        const std::size_t bytes = spec.element_count(param, scalars) * element_size(param.type);
        buffers_.emplace_back(&param, guarded_buffer(space, bytes));
        pointers_[i] = buffers_.back().second.data();
    }
}

const guarded_buffer& buffer_set::at(const std::string& name) const {
    for (const auto& [param, buffer] : buffers_)
        if (param->name == name) return buffer;
    throw std::out_of_range(name);
}

void buffer_set::load(const test_data& data) {
    for (auto& [param, buffer] : buffers_)
        if (param->is_input()) space_->upload(buffer.data(), data.inputs.at(param->name).data(), buffer.size_bytes());
    reset_outputs_and_guards();
}

void buffer_set::load_from(const std::map<std::string, const void*>& sources) {
    for (auto& [param, buffer] : buffers_)
        if (param->is_input()) space_->copy(buffer.data(), sources.at(param->name), buffer.size_bytes());
    reset_outputs_and_guards();
}

void buffer_set::reset_outputs_and_guards() {
    for (auto& [param, buffer] : buffers_) {
        if (param->role == param_role::out) space_->fill(buffer.data(), poison_byte(param->type), buffer.size_bytes());
        buffer.arm_guards();
    }
}

host_array buffer_set::download(const parameter& param) const {
    const guarded_buffer& buffer = at(param.name);
    host_array values(param.type, buffer.size_bytes() / element_size(param.type));
    space_->download(values.data(), buffer.data(), buffer.size_bytes());
    return values;
}

std::map<std::string, host_array> buffer_set::download_outputs() const {
    std::map<std::string, host_array> outputs;
    for (const auto& [param, buffer] : buffers_)
        if (param->is_output()) outputs.emplace(param->name, download(*param));
    return outputs;
}

call_outcome call_solve(const c_function& solve, const buffer_set& buffers, const scalar_values& scalars,
                        memory_space& space, call_listener& listener) {
    const call_status status = call_between_hooks(space, listener, [&] { solve.call(buffers.pointers(), scalars); });
    call_outcome outcome;
    if (!status.ok) {
        outcome.result = verdict::runtime_error;
        outcome.message = fmt::format("CUDA error during solve: {}", status.error);
        outcome.context_lost = status.context_lost;
    }
    return outcome;
}

namespace {

// The first element of an input that solve changed, if any.
std::optional<std::string> find_changed_input(const parameter& param, const host_array& original,
                                              const host_array& now, const scalar_values& scalars) {
    if (std::memcmp(original.data(), now.data(), original.size_bytes()) == 0) return std::nullopt;
    std::size_t i = 0;
    while (original.bits(i) == now.bits(i)) ++i;
    const std::string where = format_coordinates(coordinates_of(i, extents_of(param, scalars)));
    return fmt::format("solve wrote into the {}input '{}': {}[{}] was {:.9g}, now {:.9g}",
                       param.is_const ? "const " : "", param.name, param.name, where, original.value(i), now.value(i));
}

}  // namespace

call_outcome check_call(const problem_spec& spec, const buffer_set& buffers, const test_data& data) {
    call_outcome outcome;
    for (const auto& param : spec.params) {
        if (!param.is_pointer) continue;
        if (auto violation = buffers.at(param.name).check_guards(param.name)) {
            outcome.result = verdict::memory_violation;
            outcome.message = *violation;
            return outcome;
        }
    }
    for (const auto& param : spec.params) {
        if (!param.is_pointer || param.role != param_role::in || !data.inputs.count(param.name)) continue;
        if (auto change = find_changed_input(param, data.inputs.at(param.name), buffers.download(param), data.scalars)) {
            outcome.result = verdict::memory_violation;
            outcome.message = *change;
            return outcome;
        }
    }
    outcome.mismatches = compare_outputs(spec, data, buffers.download_outputs());
    if (!outcome.mismatches.empty()) {
        outcome.result = verdict::wrong_answer;
        for (const auto& mismatch : outcome.mismatches)
            outcome.message += (outcome.message.empty() ? "" : "\n") + mismatch.describe();
    }
    return outcome;
}

call_outcome judge_call(const problem_spec& spec, memory_space& space, const c_function& solve,
                        const test_data& data, call_listener& listener) {
    buffer_set buffers(spec, space, data.scalars);
    buffers.load(data);
    call_outcome outcome = call_solve(solve, buffers, data.scalars, space, listener);
    if (outcome.result != verdict::accepted) return outcome;
    return check_call(spec, buffers, data);
}

}  // namespace gpujudge
