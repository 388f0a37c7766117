#include "cli/commands.hpp"

namespace gpujudge {

namespace {

std::vector<test_kind> parse_kinds(const std::vector<std::string>& names) {
    std::vector<test_kind> kinds;
    for (const auto& name : names) {
        if (name == "examples")
            kinds.push_back(test_kind::example);
        else if (name == "functional")
            kinds.push_back(test_kind::functional);
        else if (name == "benchmarks")
            kinds.push_back(test_kind::benchmark);
    }
    return kinds;
}

}  // namespace

command_action define_submit(CLI::App& command) {
    struct options {
        judge_request request;
        std::vector<std::string> kinds;
        bool no_bench = false;
        bool no_torch = false;
    };
    auto opts = std::make_shared<options>();
    add_judge_arguments(command, opts->request);
    // One value per --tests (comma-separated kinds), so that a file name after it stays the source.
    command
        .add_option("--tests", opts->kinds,
                    "Only these kinds of tests, comma-separated: examples, functional, benchmarks")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(CLI::IsMember({"examples", "functional", "benchmarks"}));
    command.add_flag("--no-bench", opts->no_bench, "Skip the timed runs after the tests pass");
    add_no_torch_flag(command, opts->no_torch);
    return [opts](cli_context& context) {
        return judge_and_report(context, opts->request, [&](const problem_spec& spec) {
            judge_options options = submit_options(spec, parse_kinds(opts->kinds), !opts->no_bench);
            options.with_torch = !opts->no_torch;
            return options;
        });
    };
}

}  // namespace gpujudge
