#include "base/json_text.hpp"
#include "cli/commands.hpp"
#include "sanitize/run.hpp"
#include "toolkit/compute_sanitizer.hpp"

#include <fmt/format.h>

namespace gpujudge {

// compute-sanitizer over the examples and functional tests: its findings at the user's file:line,
// and a verdict of its own, so that a course can require "clean".
command_action define_sanitize(CLI::App& command) {
    struct options {
        judge_request request;
        std::string tool = "memcheck";
    };
    auto opts = std::make_shared<options>();
    add_judge_arguments(command, opts->request);
    command
        .add_option("--tool", opts->tool,
                    "compute-sanitizer's tool: memcheck (out-of-bounds and misaligned accesses), racecheck "
                    "(shared-memory races), synccheck (barriers), initcheck (reads of uninitialised global memory)")
        ->check(CLI::IsMember(sanitizer_tools()));
    return [opts](cli_context& context) {
        const judge_request& request = opts->request;
        const problem_spec spec = load_named_problem(context, request.problem);
        require_source_file(request.source);
        sanitize_result result;
        {
            const progress_scope shown(context.judge.progress, request.json);
            result = sanitize_submission(spec, request.source, opts->tool, context.judge);
        }
        if (request.json)
            fmt::print("{}\n", json_text(sanitize_json(spec, request.source, result), 2));
        else
            print_sanitize(stdout, spec, request.source, result, context.look);
        return decide_sanitize(result).exit_code;
    };
}

}  // namespace gpujudge
