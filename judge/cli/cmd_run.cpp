#include "commands.hpp"

namespace gpujudge {

// LeetGPU's "Run" beside its "Submit": the examples and functional tests, no timed runs, so that
// the answer comes in about a second once the file is compiled.
judge_options run_options(const problem_spec& spec) {
    judge_options judging;
    judging.tests = select_tests(spec, {test_kind::example, test_kind::functional});
    judging.timed = false;
    judging.origin = "run";
    judging.keep_attempt = true;
    return judging;
}

command_action define_run(CLI::App& command) {
    auto request = std::make_shared<judge_request>();
    add_judge_arguments(command, *request);
    return [request](cli_context& context) { return judge_and_report(context, *request, run_options); };
}

}  // namespace gpujudge
