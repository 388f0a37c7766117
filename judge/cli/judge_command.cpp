// What `run` and `submit` share: one path from the command line to the judge and back.
#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

void print_judgement(const cli_context& context, const problem_spec& spec, const judge_request& request,
                     const judgement& result) {
    if (request.json) {
        fmt::print("{}\n", json_text(submission_json(spec, request.source, result, context.judge.results), 2));
        return;
    }
    print_submission(stdout, spec, request.source, result, context.look);
    if (const auto best = best_after(spec, result, context.judge.results))
        fmt::print("personal best on '{}': {:.1f} µs ({:.0f} GB/s), {} on {}\n", best->test, best->median_ms * 1e3,
                   best->gbps, best->source, best->recorded_at);
}

// Judges with progress on a terminal; the line is erased (the progress gone) before it returns.
judgement judge_with_progress(cli_context& context, const problem_spec& spec, const judge_request& request,
                              const judge_options& options) {
    const progress_scope shown(context.judge.progress, request.json);
    return judge_submission(spec, request.source, options, context.judge);
}

}  // namespace

void add_judge_arguments(CLI::App& command, judge_request& request) {
    command.add_option("problem", request.problem, "Problem slug or folder")->required();
    command.add_option("source", request.source, "Your .cu file")->required();
    command.add_flag("--json", request.json, "Print one JSON object instead of the report");
}

int judge_and_report(cli_context& context, const judge_request& request,
                     const std::function<judge_options(const problem_spec&)>& options_for) {
    const problem_spec spec = load_named_problem(context, request.problem);
    require_source_file(request.source);
    const judgement result = judge_with_progress(context, spec, request, options_for(spec));
    print_judgement(context, spec, request, result);
    return exit_code_for(result.overall);
}

}  // namespace gpujudge
