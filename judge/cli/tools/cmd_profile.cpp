#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "base/user_errors.hpp"
#include "cli/commands.hpp"
#include "profile/report.hpp"
#include "profile/run.hpp"
#include "toolkit/programs.hpp"

#include <fmt/format.h>

namespace gpujudge {

command_action define_profile(CLI::App& command) {
    struct options {
        std::string problem, source, test;
        std::vector<std::string> compare;
        bool json = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("source", opts->source, "Your .cu file");
    command.add_option("--test", opts->test, "The benchmark to profile, by name (default: the largest)");
    command.add_option("--compare", opts->compare, "Profile two .cu files and show them side by side")->expected(2);
    command.add_flag("--json", opts->json, "Print one JSON object instead of the report");
    return [opts](cli_context& context) {
        const problem_spec spec = load_named_problem(context, opts->problem);
        if (!opts->compare.empty() && !opts->source.empty())
            throw usage_error("profile takes one source file, or --compare A.cu B.cu, not both");
        if (opts->compare.empty() && opts->source.empty())
            throw usage_error("profile needs a source file, or --compare A.cu B.cu");
        const std::vector<std::string> files =
            opts->compare.empty() ? std::vector<std::string>{opts->source} : opts->compare;
        for (const auto& file : files) require_source_file(file);
        const int test = profiled_test(spec, opts->test);
        const std::filesystem::path ncu = find_toolkit_program("ncu");
        std::vector<profiled_source> profiles;
        {
            const progress_scope shown(context.judge.progress, opts->json);  // erased before the report
            for (const auto& file : files)
                profiles.push_back({file, profile_submission(spec, file, test, ncu, context.judge)});
        }
        const bool compared = profiles.size() > 1;
        if (opts->json)
            fmt::print("{}\n",
                       json_text(compared ? comparison_json(spec, profiles) : profile_json(spec, profiles.front()), 2));
        else if (compared)
            print_comparison(stdout, spec, profiles, context.look);
        else
            print_profile(stdout, spec, profiles.front(), context.look);
        for (const auto& profile : profiles)
            if (profile.result.overall != verdict::accepted) return exit_code_for(profile.result.overall);
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
