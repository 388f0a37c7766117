#pragma once
// One call of solve under judgement: load the buffers, let the harness's writes finish, call,
// synchronise, then check guards and const inputs. Shared by plain tests and by every timed run.
// The outputs are not checked here: they go to the judge (output_sink), the only process that
// holds the expected ones, and it alone decides whether they pass.
#include "buffers/data_set.hpp"
#include "buffers/guarded_buffer.hpp"
#include "calls/call_listener.hpp"
#include "checks/compare.hpp"
#include "checks/poison_watch.hpp"
#include "checks/verdict.hpp"
#include "spec/output_file.hpp"
#include "spec/solve_function.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

struct call_outcome {
    verdict result = verdict::accepted;
    std::string message;
    std::vector<comparison> mismatches;
    std::optional<cause_kind> cause;  // the likely cause the message names, if any
    bool context_lost = false;
};

// One guarded buffer for every pointer parameter, sized for a test's scalars; exact allocations
// without guards when `guarded` is false (sanitize runs: compute-sanitizer is the guard there).
class buffer_set {
public:
    buffer_set(const problem_spec& spec, memory_space& space, const scalar_values& scalars, bool guarded = true);
    // Solve's arguments: a pointer per parameter position (nullptr for scalars).
    const std::vector<void*>& pointers() const { return pointers_; }
    const guarded_buffer& at(const std::string& name) const;

    // Makes the inputs from their recipe, poisons the outputs and arms every guard.
    void load(const input_set& inputs);
    host_array download(const parameter& param) const;
    double value_at(const parameter& param, std::size_t index) const;  // one element, downloaded
    // The buffers load poisons (the first kMaxWatchedOutputs), for the timer to watch.
    poison_watch poisoned_outputs() const;
    // The verdict for an early write the timer found in poisoned_outputs(): impossible_time.
    call_outcome written_before_call(const early_write& found, const scalar_values& scalars) const;
    // impossible_time for an output word that changed after the call's clock stopped.
    call_outcome written_after_call(const late_write& found, const scalar_values& scalars) const;

private:
    // The watched output `output` (an index of poisoned_outputs()) and where its word `word` lies: "out[3, 4]".
    std::pair<const parameter*, std::string> watched_word(int output, std::uint64_t word,
                                                          const scalar_values& scalars) const;
    template <typename Visit>  // visit(param, buffer) for each buffer poisoned_outputs() holds
    void for_each_poisoned(Visit&& visit) const;

    const problem_spec* spec_;
    memory_space* space_;
    std::vector<std::pair<const parameter*, guarded_buffer>> buffers_;
    std::vector<void*> pointers_;
};

// Where a call's outputs go once the call and its buffer checks are done. False: the receiver
// (the judge) wants no more calls.
class output_sink {
public:
    virtual ~output_sink() = default;
    virtual bool ship(const buffer_set& buffers) = 0;
};

// Waits for the harness's own writes (inputs, poison, guards, the cache flush), then calls solve
// and synchronises; runtime_error when the device reports an error. Work solve starts on streams
// of its own therefore never races the judge's preparation.
call_outcome call_solve(const solve_function& solve, const buffer_set& buffers, const scalar_values& scalars,
                        memory_space& space, call_listener& listener);

// Guards intact, `const` inputs as `inputs` made them.
call_outcome check_buffers(const problem_spec& spec, const buffer_set& buffers, const scalar_values& scalars,
                           const input_set& inputs);

// The outcome of a call whose outputs differ from the expected ones: wrong_answer, each
// mismatch described (its advice for a solve in `language`), and the likely cause the first that
// shows one names.
call_outcome wrong_answer_of(std::vector<comparison> mismatches, solve_language language = solve_language::cuda);

// What the harness reports for a call the judge stopped (it found the outputs wrong and keeps
// the verdict and its message itself).
call_outcome stopped_by_judge();

}  // namespace gpujudge
