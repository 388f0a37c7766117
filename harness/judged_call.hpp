#pragma once
// One call of solve under judgement: load the buffers, call, synchronise, then check guards,
// const inputs and outputs. Shared by plain tests and by every timed run.
#include "c_function.hpp"
#include "call_listener.hpp"
#include "compare.hpp"
#include "guarded_buffer.hpp"
#include "output_file.hpp"
#include "verdict.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct call_outcome {
    verdict result = verdict::accepted;
    std::string message;
    std::vector<comparison> mismatches;
    std::optional<cause_kind> cause;  // the likely cause the message names, if any
    bool context_lost = false;
};

using buffer_sources = std::map<std::string, const void*>;

// What a call's outputs must be: host values (for the message), and copies in the call's memory
// space where many calls are checked against them (timed runs): the check runs there, and the
// outputs are downloaded only when they differ.
struct expected_outputs {
    named_arrays values;
    std::map<std::string, guarded_buffer> in_space;
};
void copy_into_space(expected_outputs& expected, memory_space& space);

// One guarded buffer for every pointer parameter, sized for a test's scalars; exact allocations
// without guards when `guarded` is false (sanitize runs: compute-sanitizer is the guard there).
class buffer_set {
public:
    buffer_set(const problem_spec& spec, memory_space& space, const scalar_values& scalars, bool guarded = true);
    // Solve's arguments: a pointer per parameter position (nullptr for scalars).
    const std::vector<void*>& pointers() const { return pointers_; }
    const guarded_buffer& at(const std::string& name) const;

    // Fills the inputs from buffers of the same space, poisons the outputs and arms every guard.
    void load_from(const buffer_sources& sources);
    host_array download(const parameter& param) const;
    named_arrays download_outputs() const;

private:
    const problem_spec* spec_;
    memory_space* space_;
    std::vector<std::pair<const parameter*, guarded_buffer>> buffers_;
    std::vector<void*> pointers_;
};

// Calls solve and synchronises; runtime_error when the device reports an error.
call_outcome call_solve(const c_function& solve, const buffer_set& buffers, const scalar_values& scalars,
                        memory_space& space, call_listener& listener);

// Guards, `const` inputs unchanged against their sources, then outputs against the expected ones.
call_outcome check_call(const problem_spec& spec, memory_space& space, const buffer_set& buffers,
                        const scalar_values& scalars, const buffer_sources& sources, const expected_outputs& expected);

}  // namespace gpujudge
