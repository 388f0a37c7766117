#include "profile/run.hpp"

#include "base/user_errors.hpp"
#include "history/database.hpp"
#include "judging/modes.hpp"
#include "process/child_process.hpp"
#include "process/sandbox.hpp"
#include "references/outputs.hpp"
#include "references/timed_data.hpp"
#include "spec/expression.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <ctime>
#include <sstream>

namespace gpujudge {

namespace {

constexpr const char* kCountersDenied = "ERR_NVGPUCTRPERM";

std::string joined(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& arg : argv) text += (text.empty() ? "" : " ") + arg;
    return text;
}

// The lines ncu marked as errors, for a message; the whole tail when it marked none.
std::string ncu_errors(const std::string& output) {
    std::istringstream lines(output);
    std::string line, errors;
    while (std::getline(lines, line))
        if (line.rfind("==ERROR==", 0) == 0) errors += (errors.empty() ? "" : "\n") + line;
    return errors.empty() ? output : errors;
}

// profiles/<problem>-<file>-<local time>.ncu-rep, never one that exists already.
std::filesystem::path new_report_path(const problem_spec& spec, const std::filesystem::path& source) {
    const std::filesystem::path dir = profiles_dir();
    std::filesystem::create_directories(dir);
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string stem = fmt::format("{}-{}-{}", spec.slug, source.stem().string(), stamp);
    std::filesystem::path path = dir / (stem + ".ncu-rep");
    for (int n = 2; std::filesystem::exists(path); ++n) path = dir / fmt::format("{}-{}.ncu-rep", stem, n);
    return path;
}

// The test's expected outputs, from the reference cache the judged run has just filled.
expected_by_test expected_outputs_of(const problem_spec& spec, int test, judge_context& context) {
    reference_outputs references(spec, build_reference(spec, context), context.compiler.cache_dir, context.runner);
    const test_spec& item = spec.tests.at(static_cast<std::size_t>(test));
    const auto file = references.ensure({{test, own_data(item), {}}}).at(0);
    return {{test, read_outputs(file, spec, item.scalars)}};
}

// The test's profile job in a runner started behind `settings.launcher`: the call's report, and
// what the runner and ncu printed.
std::pair<test_report, std::string> call_under_ncu(const problem_spec& spec, int test, const runner_settings& settings,
                                                   const std::filesystem::path& library, judge_context& context) {
    const test_job job{test, own_data(spec.tests.at(static_cast<std::size_t>(test)))};
    const expected_by_test expected = expected_outputs_of(spec, test, context);
    std::vector<test_report> reports = pending_reports(spec, {test});
    runner_session session(spec, settings);
    session.report_progress(context.progress);
    if (auto failure = session.load(library, "solve")) {
        reports.front().result = verdict::runtime_error;
        reports.front().message = *failure;
    } else {
        session.profile(job, expected, reports);
    }
    session.finish(120);  // ncu writes the report once the runner has exited
    return {reports.front(), session.output_tail()};
}

// The submission's call under ncu; the verdict of that call when it fails there.
std::optional<test_report> run_under_ncu(const problem_spec& spec, const std::filesystem::path& source, int test,
                                         const std::filesystem::path& ncu, judge_context& context,
                                         profile_result& result) {
    // ncu runs in the sandbox, before the runner: it writes into a folder of this run's own, and the
    // judge takes the report out (a regular file only) into the profiles folder, which stays unseen.
    // Inside it, the folder the sandbox writes: a root judge gives that one to its sandbox's user.
    const temp_dir private_folder("ncu");
    const std::filesystem::path report_folder = private_folder.path() / "written";
    std::filesystem::create_directory(report_folder);
    const std::filesystem::path written = report_folder / "report.ncu-rep";
    runner_settings settings = runner_for(context.runner, source);
    settings.launcher = ncu_command(ncu, written);
    settings.launcher_writable = {report_folder};
    const double limit_s = profiled_call_limit_s(spec);
    settings.call_slack_ms = 1000 * limit_s - spec.time_limit_ms;
    result.ncu_command = ncu_command(ncu, result.report);  // as the learner would run it
    result.ncu_command.push_back(settings.runner_exe.string());
    spdlog::debug("ncu: {}", joined(result.ncu_command));
    auto [call, output] = call_under_ncu(spec, test, settings, result.judged.compile.library, context);
    if (output.find(kCountersDenied) != std::string::npos)
        throw counters_denied_error(
            "ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run gpujudge as root, or allow "
            "every user to profile with the NVIDIA driver's option NVreg_RestrictProfilingToAdminUsers=0 "
            "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
    if (call.result == verdict::time_limit_exceeded)  // the limit was the profiled call's, not the problem's
        call.message = fmt::format("solve did not finish within {:g} s under ncu; the process was killed", limit_s);
    if (call.result != verdict::accepted && output.find("==ERROR==") != std::string::npos)
        call.message += "\n" + ncu_errors(output);  // what ncu said may be why
    if (call.result != verdict::accepted) return call;
    // A report that is no regular file (a link ncu was made to follow) is no report.
    const bool written_one = std::filesystem::exists(std::filesystem::symlink_status(written));
    if (written_one ? take_from_sandbox(written, result.report).has_value()
                    : output.find("No kernels were profiled") == std::string::npos)
        throw environment_error(
            fmt::format("ncu wrote no report ({}); it printed:\n{}", result.report.string(), ncu_errors(output)));
    return std::nullopt;
}

std::vector<kernel_profile> import_report(const std::filesystem::path& ncu, const std::filesystem::path& report) {
    if (!std::filesystem::exists(report)) return {};  // solve launched no kernel
    const std::vector<std::string> argv{ncu.string(), "--import", report.string(), "--csv",
                                        "--page",     "raw",      "--print-units", "base"};
    spdlog::debug("ncu: {}", joined(argv));
    const command_result imported = run_command(argv, std::chrono::seconds(300));
    if (imported.exit.signaled || imported.exit.timed_out || imported.exit.code != 0)
        throw environment_error(
            fmt::format("'{}' failed ({}):\n{}", joined(argv), imported.exit.describe(), ncu_errors(imported.output)));
    try {
        return parse_ncu_raw_csv(imported.output);
    } catch (const std::runtime_error& error) {
        throw environment_error(fmt::format("'{}': {}", joined(argv), error.what()));
    }
}

}  // namespace

int profiled_test(const problem_spec& spec, const std::string& name) {
    std::optional<int> chosen;
    double most = -1;
    std::string names;
    for (std::size_t i = 0; i < spec.tests.size(); ++i) {
        const test_spec& test = spec.tests[i];
        if (test.kind != test_kind::benchmark) continue;
        names += fmt::format("{}'{}'", names.empty() ? "" : ", ", test.name);
        const double bytes = evaluate(spec.bytes_expression, test.scalars);
        if (name.empty() ? bytes >= most : test.name == name) {
            chosen = static_cast<int>(i);
            most = bytes;
        }
    }
    if (!chosen && name.empty()) throw usage_error(fmt::format("{} has no benchmark test to profile", spec.slug));
    if (!chosen)
        throw usage_error(
            fmt::format("{} has no benchmark test named '{}' (its benchmarks: {})", spec.slug, name, names));
    return *chosen;
}

std::vector<std::string> ncu_command(const std::filesystem::path& ncu, const std::filesystem::path& report) {
    const std::vector<std::pair<std::string, std::string>> options = {
        {"--profile-from-start", "off"},  // only what runs between cudaProfilerStart and Stop: solve's call
        {"--clock-control", "none"},      // the GPU's own clocks, as in the timed run the durations meet
        {"--launch-count", std::to_string(kMaxProfiledKernels)},
        {"--section", "SpeedOfLight"},
        {"--section", "MemoryWorkloadAnalysis"},
        {"--section", "Occupancy"},
        {"--section", "WarpStateStats"},
        {"--section", "LaunchStats"},
        {"--section", "SchedulerStats"},
        {"--metrics",
         "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,"
         "l1tex__t_sector_hit_rate.pct"},
        {"--export", report.string()},
    };
    std::vector<std::string> argv{ncu.string()};
    for (const auto& [name, value] : options) argv.insert(argv.end(), {name, value});
    argv.push_back("--force-overwrite");
    return argv;
}

double profiled_call_limit_s(const problem_spec& spec) {
    if (const char* text = std::getenv("GPUJUDGE_PROFILE_LIMIT_S"); text && *text) {
        char* end = nullptr;
        const double seconds = std::strtod(text, &end);
        if (*end == '\0' && seconds > 0) return seconds;
        spdlog::warn("GPUJUDGE_PROFILE_LIMIT_S='{}' is not a positive number of seconds; ignored", text);
    }
    return 30 * spec.time_limit_ms / 1000 + 60;
}

std::filesystem::path profiles_dir() {
    return default_history_path().parent_path() / "profiles";
}

profile_result profile_submission(const problem_spec& spec, const std::filesystem::path& source, int test,
                                  const std::filesystem::path& ncu, judge_context& context) {
    profile_result result;
    result.test = test;
    result.judged = judge_submission(spec, source, profile_options(test), context);
    result.overall = result.judged.overall;
    result.reason = result.judged.reason;
    const bench_entry* mine = submission_entry(result.judged);
    if (result.overall != verdict::accepted || !mine || mine->figures.empty()) return result;
    result.time_us = mine->figures.front().median_us;
    result.peak_gbps = result.judged.bench->peak_gbps;
    result.bytes = evaluate(spec.bytes_expression, spec.tests.at(static_cast<std::size_t>(test)).scalars);
    result.report = new_report_path(spec, source);
    if (auto failed = run_under_ncu(spec, source, test, ncu, context, result)) {
        result.overall = failed->result;
        result.reason = fmt::format("the call under ncu: {}", failed->message);
        return result;
    }
    result.kernels = import_report(ncu, result.report);
    if (!std::filesystem::exists(result.report)) result.report.clear();  // no kernel, no report
    result.line = make_roofline(result.kernels, result.bytes, result.time_us, result.peak_gbps);
    result.suggestions = suggest(result.kernels, result.line);
    return result;
}

}  // namespace gpujudge
