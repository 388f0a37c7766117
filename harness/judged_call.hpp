#pragma once
// One call of solve under judgement: load the buffers, call, synchronise, then check guards,
// const inputs and outputs. Shared by plain tests and by every timed run.
#include "c_function.hpp"
#include "call_listener.hpp"
#include "compare.hpp"
#include "guarded_buffer.hpp"
#include "test_data.hpp"
#include "verdict.hpp"

#include <string>
#include <vector>

namespace gpujudge {

struct call_outcome {
    verdict result = verdict::accepted;
    std::string message;
    std::vector<comparison> mismatches;
    bool context_lost = false;
};

// One guarded buffer for every pointer parameter, sized for a test's scalars.
class buffer_set {
public:
    buffer_set(const problem_spec& spec, memory_space& space, const scalar_values& scalars);
    // Solve's arguments: a pointer per parameter position (nullptr for scalars).
    const std::vector<void*>& pointers() const { return pointers_; }
    const guarded_buffer& at(const std::string& name) const;

    // Copies the inputs in, poisons the outputs and arms every guard.
    void load(const test_data& data);
    // Fills the inputs from other buffers of the same space instead of from the host.
    void load_from(const std::map<std::string, const void*>& sources);
    // Poisons the outputs and arms every guard.
    void reset_outputs_and_guards();
    host_array download(const parameter& param) const;
    std::map<std::string, host_array> download_outputs() const;

private:
    const problem_spec* spec_;
    memory_space* space_;
    std::vector<std::pair<const parameter*, guarded_buffer>> buffers_;
    std::vector<void*> pointers_;
};

// Calls solve and synchronises; runtime_error when the device reports an error.
call_outcome call_solve(const c_function& solve, const buffer_set& buffers, const scalar_values& scalars,
                        memory_space& space, call_listener& listener);

// Guards, unchanged inputs (when `data` still holds them), then outputs against the reference.
call_outcome check_call(const problem_spec& spec, const buffer_set& buffers, const test_data& data);

// load + call_solve + check_call.
call_outcome judge_call(const problem_spec& spec, memory_space& space, const c_function& solve,
                        const test_data& data, call_listener& listener);

}  // namespace gpujudge
