#include "benchmarking.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

std::vector<test_kind> parse_kinds(const std::vector<std::string>& names) {
    std::vector<test_kind> kinds;
    for (const auto& name : names) {
        if (name == "examples") kinds.push_back(test_kind::example);
        else if (name == "functional") kinds.push_back(test_kind::functional);
        else if (name == "benchmarks") kinds.push_back(test_kind::benchmark);
    }
    return kinds;
}

void print_personal_best(const problem_spec& spec, history* results, nlohmann::json* json) {
    const auto test = headline_test(spec);
    if (!results || !test) return;
    const auto best = results->best(spec.slug, *test);
    if (!best) return;
    if (json)
        (*json)["personal_best"] = {{"source", best->source}, {"median_us", best->median_ms * 1e3},
                                    {"gbps", best->gbps}, {"recorded_at", best->recorded_at}};
    else
        fmt::print("personal best on '{}': {:.1f} µs ({:.0f} GB/s), {} on {}\n", best->test, best->median_ms * 1e3,
                   best->gbps, best->source, best->recorded_at);
}

}  // namespace

command_action define_submit(CLI::App& command) {
    struct options {
        std::string problem, source;
        std::vector<std::string> kinds;
        bool json = false;
        bool no_bench = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("source", opts->source, "Your .cu file")->required();
    // One value per --tests (comma-separated kinds), so that a file name after it stays the source.
    command
        .add_option("--tests", opts->kinds,
                    "Only these kinds of tests, comma-separated: examples, functional, benchmarks")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(CLI::IsMember({"examples", "functional", "benchmarks"}));
    command.add_flag("--json", opts->json, "Print one JSON object instead of the report");
    command.add_flag("--no-bench", opts->no_bench, "Skip the timed runs after the tests pass");
    return [opts](cli_context& context) {
        const problem_spec spec = load_named_problem(context, opts->problem);
        require_source_file(opts->source);
        judge_options judging;
        judging.tests = select_tests(spec, parse_kinds(opts->kinds));
        judging.timed = !opts->no_bench;
        // A learner waits for this: half of bench's sampling floor and a third of its budget, the
        // same error target.
        judging.timing.warmup_s = 0.2;
        judging.timing.min_time_s = 0.5;
        judging.timing.budget_s = 1.0;
        const judgement result = judge_submission(spec, opts->source, judging, context.judge);
        if (opts->json) {
            nlohmann::json json = submission_json(spec, opts->source, result);
            if (result.bench) print_personal_best(spec, context.judge.results, &json);
            fmt::print("{}\n", json.dump(2));
        } else {
            print_submission(stdout, spec, opts->source, result, context.look);
            if (result.bench) print_personal_best(spec, context.judge.results, nullptr);
        }
        return exit_code_for(result.overall);
    };
}

}  // namespace gpujudge
