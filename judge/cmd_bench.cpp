#include "benchmarking.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// The files to time: those named, else every solution of the problem declared accepted.
std::vector<std::filesystem::path> sources_for(const cli_context& context, const problem_spec& spec,
                                               const std::vector<std::string>& files) {
    std::vector<std::filesystem::path> sources(files.begin(), files.end());
    if (sources.empty())
        for (const auto& solution : list_solutions(context.judge.home, spec.slug))
            if (solution.expected == verdict::accepted) sources.push_back(solution.path);
    return sources;
}

int exit_for(const bench_report& report) {
    if (report.no_device) return exit_no_device;
    for (const auto& entry : report.entries) {
        if (!entry.compile.ok) return exit_compile_error;
        if (const bench_figures* failed = first_failure(entry)) return exit_code_for(failed->result);
    }
    return exit_accepted;
}

}  // namespace

command_action define_bench(CLI::App& command) {
    struct options {
        std::string problem;
        std::vector<std::string> files;
        bool all = false, json = false;
        double min_time_s = 1.0;
        double budget_s = 3.0;
        double target_rse = 0.005;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder");
    command.add_option("files", opts->files, "Solutions to time (default: every accepted one in solutions/<slug>/)")
        ->check(CLI::ExistingFile);
    command.add_flag("--all", opts->all, "Every problem, with its shipped solutions");
    command.add_flag("--json", opts->json, "Print JSON instead of markdown");
    command.add_option("--min-time", opts->min_time_s, "Least seconds of sampling per solution and size (default 1)");
    command.add_option("--budget", opts->budget_s, "Most seconds of sampling per solution and size (default 3)");
    command.add_option("--target-rse", opts->target_rse, "Stop sampling at this relative standard error (default 0.005)");
    return [opts](cli_context& context) {
        std::vector<std::string> problems;
        if (opts->all) {
            for (const auto& dir : list_problems(context.judge.home)) problems.push_back(dir.filename().string());
        } else if (opts->problem.empty()) {
            fmt::print(stderr, "gpujudge: bench needs a problem, or --all\n");
            return static_cast<int>(exit_usage);
        } else {
            problems.push_back(opts->problem);
        }
        history results(default_history_path());
        bench_options bench;
        bench.timing = {{"min_time_s", opts->min_time_s}, {"budget_s", opts->budget_s}, {"target_rse", opts->target_rse}};
        nlohmann::json all = nlohmann::json::array();
        int exit = exit_accepted;
        for (const auto& name : problems) {
            int load_exit = exit_accepted;
            auto spec = load_problem_or_report(context, name, load_exit);
            if (!spec) return load_exit;
            try {
                const bench_report report =
                    bench_problem(*spec, sources_for(context, *spec, opts->all ? std::vector<std::string>{} : opts->files),
                                  context.judge, results, bench);
                if (opts->json) all.push_back(bench_json(report));
                else if (report.no_device) fmt::print("bench: no GPU: {}\n", *report.no_device);
                else fmt::print("{}\n", bench_markdown(report));
                if (exit == exit_accepted) exit = exit_for(report);
                if (report.no_device) break;
            } catch (const problem_error& error) {
                fmt::print(stderr, "gpujudge: {}\n", error.what());
                return static_cast<int>(exit_invalid_problem);
            }
        }
        if (opts->json) fmt::print("{}\n", (opts->all ? all : all.at(0)).dump(2));
        return exit;
    };
}

}  // namespace gpujudge
