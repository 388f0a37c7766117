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

}  // namespace

command_action define_submit(CLI::App& command) {
    struct options {
        std::string problem, source;
        std::vector<std::string> kinds;
        bool json = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("source", opts->source, "Your .cu file")->required();
    command.add_option("--tests", opts->kinds, "Only these kinds of tests: examples, functional, benchmarks")
        ->delimiter(',')
        ->check(CLI::IsMember({"examples", "functional", "benchmarks"}));
    command.add_flag("--json", opts->json, "Print one JSON object instead of the report");
    return [opts](cli_context& context) {
        int exit = exit_accepted;
        auto spec = load_problem_or_report(context, opts->problem, exit);
        if (!spec) return exit;
        if (!std::filesystem::is_regular_file(opts->source)) {
            fmt::print(stderr, "gpujudge: {}: no such file\n", opts->source);
            return static_cast<int>(exit_usage);
        }
        submission_result result;
        try {
            result = judge_submission(*spec, opts->source, select_tests(*spec, parse_kinds(opts->kinds)), context.judge);
        } catch (const problem_error& error) {
            fmt::print(stderr, "gpujudge: {}\n", error.what());
            return static_cast<int>(exit_invalid_problem);
        }
        if (opts->json) fmt::print("{}\n", submission_json(*spec, opts->source, result).dump(2));
        else print_submission(stdout, *spec, opts->source, result, context.look);
        return exit_code_for(result.overall);
    };
}

}  // namespace gpujudge
