#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "base/progress.hpp"
#include "base/user_errors.hpp"
#include "bench/device_probe.hpp"
#include "bench/report.hpp"
#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "references/timed_data.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// The files to time: those named, else every solution of the problem declared accepted.
std::vector<std::filesystem::path> sources_for(const cli_context& context, const problem_spec& spec,
                                               const std::vector<std::string>& files) {
    std::vector<std::filesystem::path> sources(files.begin(), files.end());
    if (sources.empty())
        for (const auto& solution : list_solutions(context.judge.home, spec.slug))
            if (solution.expected == verdict::accepted && !solution.baseline) sources.push_back(solution.path);
    return sources;
}

int exit_for(const bench_report& report) {
    if (report.no_device) return exit_no_device;
    for (const auto& entry : report.entries) {
        if (!entry.compile.ok) return exit_compile_error;
        if (const bench_figures* failed = deciding_run(entry)) return exit_code_for(failed->result);
    }
    return exit_accepted;
}

// Times one source on the plan in a runner of its own (timed runs are judged runs).
bench_entry time_source(const problem_spec& spec, const std::filesystem::path& source, const timed_plan& plan,
                        double peak_gbps, judge_context& context) {
    bench_entry entry;
    entry.source = source;
    // On the host backend (the judge's own tests) as submit does: fakes built by the host compiler.
    entry.compile = context.runner.backend == runner_backend::host
                        ? compile_host(spec, source, "solve", context.compiler)
                        : compile_solution(spec, source, context.compiler);
    if (!entry.compile.ok) return entry;
    runner_session session(spec, runner_for(context.runner, source));
    session.report_progress(context.progress);
    if (auto failure = load_solution(session, entry.compile)) {
        entry.figures.push_back({headline_test(spec).value_or(""), verdict::runtime_error, *failure});
        return entry;
    }
    if (!entry.compile.ok) return entry;
    entry.figures = time_loaded(session, spec, plan, peak_gbps);
    return entry;
}

// The PyTorch one-liner among the files to time, if it is there: that entry is × torch's reference.
std::optional<std::size_t> listed_torch(const judge_context& context, const problem_spec& spec,
                                        const std::vector<std::filesystem::path>& sources) {
    const auto torch = torch_source(context.home, spec.slug);
    std::error_code error;
    for (std::size_t s = 0; torch && s < sources.size(); ++s)
        if (std::filesystem::equivalent(sources[s], *torch, error)) return s;
    return std::nullopt;
}

bench_report bench_problem(const problem_spec& spec, const std::vector<std::filesystem::path>& sources,
                           const timed_settings& settings, bool with_torch, judge_context& context) {
    bench_report report;
    report.problem = spec.slug;
    runner_session probe(spec, context.runner);
    report.no_device = adopt_device(probe, context.compiler);
    report.device = probe.device();
    if (report.no_device) return report;
    report.peak_gbps = device_ceiling(probe, report.device, context).value_or(0);
    reference_outputs references(spec, build_reference(spec, context), context.compiler.cache_dir, context.runner);
    tell(context.progress, {progress_step::stage::references, 0, 0, ""});
    std::mt19937_64 secret = fresh_secret();
    const timed_plan plan = plan_timed_runs(spec, references, settings, secret);
    const auto same_plan = [&]() -> const timed_plan& { return plan; };
    // The baseline needs a device (the host backend has none); its cycle bounds every file's (as in submit).
    const std::optional<bench_entry> base =
        report.device ? baseline_entry(spec, same_plan, context, context.results, *report.device, report.peak_gbps)
                      : std::nullopt;
    if (base) report.entries.push_back(*base);
    // The one-liner is timed once: as one of the files when it is listed, else as a reference point.
    const auto listed = with_torch ? listed_torch(context, spec, sources) : std::nullopt;
    if (with_torch && !listed)
        if (auto torch = torch_entry(spec, same_plan, context, context.results,
                                     report.device ? report.device->uuid : "host", report.peak_gbps))
            report.entries.push_back(std::move(*torch));
    for (std::size_t s = 0; s < sources.size(); ++s) {
        tell(context.progress, {progress_step::stage::compiling, static_cast<int>(s + 1),
                                static_cast<int>(sources.size()), sources[s].filename().string()});
        report.entries.push_back(time_source(spec, sources[s], plan, report.peak_gbps, context));
        report.entries.back().torch = listed == s;
        if (base) wall_clock_check(*base, report.entries.back());
    }
    add_speedups(report);
    return report;
}

std::vector<std::string> all_slugs(const std::filesystem::path& home) {
    std::vector<std::string> slugs;
    for (const auto& dir : list_problems(home)) slugs.push_back(dir.filename().string());
    return slugs;
}

}  // namespace

command_action define_bench(CLI::App& command) {
    struct options {
        std::string problem;
        std::vector<std::string> files;
        bool all = false, json = false, no_torch = false;
        timed_settings timing;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder");
    command.add_option("files", opts->files, "Solutions to time (default: every accepted one in solutions/<slug>/)");
    command.add_flag("--all", opts->all, "Every problem, with its shipped solutions");
    command.add_flag("--json", opts->json, "Print JSON instead of markdown");
    add_no_torch_flag(command, opts->no_torch);
    command.add_option("--min-time", opts->timing.min_time_s, "Least seconds of sampling per solution and size")
        ->capture_default_str();
    command.add_option("--budget", opts->timing.budget_s, "Most seconds of sampling per solution and size")
        ->capture_default_str();
    command.add_option("--target-rse", opts->timing.target_rse, "Stop sampling at this relative standard error")
        ->capture_default_str();
    return [opts](cli_context& context) {
        if (!opts->all && opts->problem.empty()) throw usage_error("bench needs a problem, or --all");
        if (opts->all && !opts->problem.empty())  // it was taken silently, and every problem timed
            throw usage_error("bench --all times every problem with its shipped solutions: name none with it");
        const std::vector<std::string> problems =
            opts->all ? all_slugs(context.judge.home) : std::vector<std::string>{opts->problem};
        for (const auto& file : opts->files) require_source_file(file);
        nlohmann::json all = nlohmann::json::array();
        int exit = exit_accepted;
        for (const auto& name : problems) {
            const problem_spec spec = load_named_problem(context, name);
            const auto sources = sources_for(context, spec, opts->all ? std::vector<std::string>{} : opts->files);
            // An empty table, exit 0; a baseline alone is timed (with the one-liner on a GPU).
            if (sources.empty() && !opts->all && list_solutions(context.judge.home, spec.slug).empty())
                throw usage_error(
                    fmt::format("bench: {}: nothing to time: name a file, or add accepted solutions "
                                "to solutions/{}/",
                                spec.slug, spec.slug));
            const bench_report report = [&] {
                const progress_scope shown(context.judge.progress, opts->json);  // erased before the table
                return bench_problem(spec, sources, opts->timing, !opts->no_torch, context.judge);
            }();
            if (opts->json)
                all.push_back(bench_json(report));
            else if (report.no_device)
                fmt::print("bench: no GPU: {}\n", *report.no_device);
            else
                fmt::print("{}\n", bench_markdown(report));
            if (exit == exit_accepted) exit = exit_for(report);
            if (report.no_device) break;
        }
        if (opts->json) fmt::print("{}\n", json_text(opts->all ? all : all.at(0), 2));
        return exit;
    };
}

}  // namespace gpujudge
