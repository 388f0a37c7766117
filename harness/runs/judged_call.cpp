#include "runs/judged_call.hpp"

#include "calls/solve_signals.hpp"
#include "checks/poison.hpp"
#include "checks/test_data.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gpujudge {

buffer_set::buffer_set(const problem_spec& spec, memory_space& space, const scalar_values& scalars, bool guarded)
    : spec_(&spec), space_(&space), pointers_(spec.params.size(), nullptr) {
    buffers_.reserve(spec.params.size());
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer) continue;
        const std::size_t bytes = spec.element_count(param, scalars) * element_size(param.type);
        buffers_.emplace_back(&param, guarded_buffer(space, bytes, guarded ? guarded_buffer::kGuardBytes : 0));
        pointers_[i] = buffers_.back().second.data();
    }
}

const guarded_buffer& buffer_set::at(const std::string& name) const {
    for (const auto& [param, buffer] : buffers_)
        if (param->name == name) return buffer;
    throw std::out_of_range(name);
}

void buffer_set::load(const input_set& inputs) {
    for (auto& [param, buffer] : buffers_) {
        if (param->is_input())
            inputs.write(*param, buffer.data());
        else
            space_->fill(buffer.data(), poison_byte(param->type), buffer.size_bytes());
        buffer.arm_guards();
    }
}

template <typename Visit>
void buffer_set::for_each_poisoned(Visit&& visit) const {
    int count = 0;
    for (const auto& [param, buffer] : buffers_) {
        if (param->is_input() || buffer.size_bytes() < sizeof(std::uint32_t)) continue;
        if (count++ == kMaxWatchedOutputs) return;
        visit(*param, buffer);
    }
}

poison_watch buffer_set::poisoned_outputs() const {
    poison_watch watch;
    for_each_poisoned([&](const parameter& param, const guarded_buffer& buffer) {
        watch.outputs[watch.num_outputs++] = {static_cast<const std::uint32_t*>(buffer.data()),
                                              buffer.size_bytes() / sizeof(std::uint32_t), poison_word(param.type)};
    });
    return watch;
}

std::pair<const parameter*, std::string> buffer_set::watched_word(int output, std::uint64_t word,
                                                                  const scalar_values& scalars) const {
    const parameter* written = nullptr;
    int index = 0;
    for_each_poisoned([&](const parameter& param, const guarded_buffer&) {
        if (index++ == output) written = &param;
    });
    if (!written) throw std::out_of_range("a write in no watched output");
    const std::size_t element = word * sizeof(std::uint32_t) / element_size(written->type);
    return {written, fmt::format("{}[{}]", written->name,
                                 format_coordinates(coordinates_of(element, extents_of(*written, scalars))))};
}

call_outcome buffer_set::written_before_call(const early_write& found, const scalar_values& scalars) const {
    const auto [written, where] = watched_word(found.output, found.word, scalars);
    call_outcome outcome;
    outcome.result = verdict::impossible_time;
    outcome.message = fmt::format(
        "{} held 0x{:08x}, not the judge's poison 0x{:08x}, when solve was called: an answer written before "
        "the call was made outside it and cannot be timed",
        where, found.value, poison_word(written->type));
    return outcome;
}

call_outcome buffer_set::written_after_call(const late_write& found, const scalar_values& scalars) const {
    const std::string where = watched_word(found.output, found.word, scalars).second;
    call_outcome outcome;
    outcome.result = verdict::impossible_time;
    outcome.message = fmt::format(
        "{} held 0x{:08x} when solve's call had ended (returned, its work synchronised) and 0x{:08x} once "
        "its outputs were shipped: an answer written after the call was made outside it and cannot be timed",
        where, found.at_finish, found.later);
    return outcome;
}

host_array buffer_set::download(const parameter& param) const {
    const guarded_buffer& buffer = at(param.name);
    host_array values(param.type, buffer.size_bytes() / element_size(param.type));
    space_->download(values.data(), buffer.data(), buffer.size_bytes());
    return values;
}

double buffer_set::value_at(const parameter& param, std::size_t index) const {
    host_array one(param.type, 1);
    const std::size_t bytes = element_size(param.type);
    space_->download(one.data(), static_cast<const char*>(at(param.name).data()) + index * bytes, bytes);
    return one.value(0);
}

call_outcome call_solve(const solve_function& solve, const buffer_set& buffers, const scalar_values& scalars,
                        memory_space& space, call_listener& listener) {
    const call_status settled = space.finish_call();  // the harness's own writes, never timed
    if (!settled.ok) throw std::runtime_error("preparing the call failed: " + settled.error);
    std::optional<std::string> raised;
    solve_signals signals;
    const call_status status = call_between_hooks(space, listener, [&] {
        raised = solve.run(buffers.pointers(), scalars);
        signals.solve_returned();
    });
    call_outcome outcome;
    if (raised) {
        outcome.result = verdict::runtime_error;
        outcome.message = fmt::format("solve raised an exception:\n{}", *raised);
    } else if (!status.ok) {
        outcome.result = verdict::runtime_error;
        outcome.message = fmt::format("CUDA error during solve: {}", status.error);
        outcome.context_lost = status.context_lost;
    }
    return outcome;
}

namespace {

// The first element of a `const` input that solve changed, if any, found where the buffers live.
std::optional<std::string> find_changed_input(const parameter& param, const buffer_set& buffers,
                                              const input_set& inputs, const scalar_values& scalars) {
    const auto i = inputs.first_change(param, buffers.at(param.name).data());
    if (!i) return std::nullopt;
    const std::string where = format_coordinates(coordinates_of(*i, extents_of(param, scalars)));
    return fmt::format("solve wrote into the {}input '{}': {}[{}] was {:.9g}, now {:.9g}",
                       param.is_const ? "const " : "", param.name, param.name, where, inputs.original_value(param, *i),
                       buffers.value_at(param, *i));
}

}  // namespace

call_outcome check_buffers(const problem_spec& spec, const buffer_set& buffers, const scalar_values& scalars,
                           const input_set& inputs) {
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
        if (!param.is_pointer || param.role != param_role::in) continue;
        if (auto change = find_changed_input(param, buffers, inputs, scalars)) {
            outcome.result = verdict::memory_violation;
            outcome.message = *change;
            return outcome;
        }
    }
    return outcome;
}

call_outcome wrong_answer_of(std::vector<comparison> mismatches, solve_language language) {
    call_outcome outcome;
    outcome.mismatches = std::move(mismatches);
    if (outcome.mismatches.empty()) return outcome;
    outcome.result = verdict::wrong_answer;
    for (const auto& mismatch : outcome.mismatches) {
        outcome.message += (outcome.message.empty() ? "" : "\n") + mismatch.describe(language);
        if (const auto cause = likely_cause(mismatch.pattern); cause && !outcome.cause) outcome.cause = cause->kind;
    }
    return outcome;
}

call_outcome stopped_by_judge() {
    call_outcome outcome;
    outcome.result = verdict::wrong_answer;
    outcome.message = "the judge found the outputs wrong";
    return outcome;
}

}  // namespace gpujudge
