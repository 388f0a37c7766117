#include "judging.hpp"

#include "runner_process.hpp"
#include "temp_dir.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>

namespace gpujudge {

namespace {

using clock = std::chrono::steady_clock;

std::chrono::milliseconds ms(double value) { return std::chrono::milliseconds(static_cast<long long>(value)); }

std::string explain_death(const child_exit& exit, bool in_call) {
    const std::string where = in_call ? "during solve" : "while the harness checked the test";
    if (exit.signaled) return fmt::format("the process was killed by {} {}", exit.describe(), where);
    if (in_call)
        return fmt::format("solve ended the process ({}): a submission must return from solve, not call exit()",
                           exit.describe());
    return fmt::format("the process ended ({}) {}", exit.describe(), where);
}

// One runner process over the tests not yet judged. Returns false when judging must stop.
bool run_once(const problem_spec& spec, runner_job job, const runner_settings& settings,
              std::map<int, test_report>& reports, judge_run& run) {
    temp_dir work("run");
    runner_process runner(settings.runner_exe, job, work.path());
    int current = -1;
    bool in_call = false;
    auto deadline = clock::now() + ms(settings.harness_limit_s * 1000);
    const auto call_limit = ms(spec.time_limit_ms + settings.call_slack_ms);
    bool progress = false;
    auto record = [&](int index, verdict result, std::string message, double wall_ms) {
        test_report& report = reports.at(index);
        report.result = result;
        report.message = std::move(message);
        report.wall_ms = wall_ms;
        progress = true;
    };
    auto first_open = [&]() {
        for (int index : job.tests)
            if (reports.at(index).result == verdict::skipped) return index;
        return -1;
    };

    nlohmann::json message;
    for (;;) {
        const auto status = runner.next(message, deadline);
        if (status == runner_process::read_status::timeout) {
            runner.finish(true);
            const int index = current >= 0 ? current : first_open();
            if (index >= 0)
                record(index, verdict::time_limit_exceeded,
                       in_call ? fmt::format("solve did not finish within the time limit of {:g} ms; the process "
                                             "was killed", spec.time_limit_ms)
                               : fmt::format("the test did not finish within {:g} s", settings.harness_limit_s),
                       in_call ? spec.time_limit_ms : 0);
            run.program_output += runner.output_tail(4096);
            return false;  // the tests after a hang are not run: each could hang as long
        }
        if (status == runner_process::read_status::closed) {
            const child_exit exit = runner.finish(false);
            run.program_output += runner.output_tail(4096);
            const int index = current >= 0 ? current : first_open();
            if (index < 0) return true;
            if (current >= 0 || !progress) record(index, verdict::runtime_error, explain_death(exit, in_call), 0);
            return true;
        }
        const std::string kind = message.value("event", "");
        spdlog::debug("runner: {}", message.dump());
        if (kind == event::no_device) {
            run.no_device = message.value("message", "no device");
            runner.finish(true);
            return false;
        } else if (kind == event::device) {
            run.device = message;
        } else if (kind == event::begin) {
            current = message.at("test").get<int>();
            deadline = clock::now() + ms(settings.harness_limit_s * 1000);
        } else if (kind == event::call) {
            in_call = true;
            deadline = clock::now() + call_limit;
        } else if (kind == event::returned) {
            in_call = false;
            deadline = clock::now() + ms(settings.harness_limit_s * 1000);
        } else if (kind == event::result) {
            const int index = message.at("test").get<int>();
            const double wall_ms = message.value("wall_ms", 0.0);
            auto result = verdict_from_string(message.value("verdict", "")).value_or(verdict::runtime_error);
            std::string text = message.value("message", "");
            if (result == verdict::accepted && wall_ms > spec.time_limit_ms) {
                result = verdict::time_limit_exceeded;
                text = fmt::format("solve took {:.1f} ms, over the time limit of {:g} ms", wall_ms, spec.time_limit_ms);
            }
            record(index, result, std::move(text), wall_ms);
            reports.at(index).stats = message.value("stats", nlohmann::json{});
            reports.at(index).host_clock = message.value("host_clock", false);
            reports.at(index).blocking = message.value("blocking", true);
            current = -1;
        } else if (kind == event::peak) {
            run.peak_gbps = message.at("gbps").get<double>();
        } else if (kind == event::fatal) {
            runner.finish(true);
            run.program_output += runner.output_tail(4096);
            const int index = current >= 0 ? current : first_open();
            if (index >= 0) record(index, verdict::runtime_error, message.value("message", "the runner failed"), 0);
            return false;
        } else if (kind == event::done) {
            runner.finish(false);
            run.program_output += runner.output_tail(4096);
            return true;
        }
    }
}

}  // namespace

judge_run run_tests(const problem_spec& spec, const std::filesystem::path& solution,
                    const std::filesystem::path& reference, const std::vector<int>& tests,
                    const runner_settings& settings, runner_mode mode, const nlohmann::json& bench) {
    judge_run run;
    std::map<int, test_report> reports;
    for (int index : tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        reports[index] = {index, test.name, test.kind, verdict::skipped, "", 0, {}, 0};
    }
    runner_job job;
    job.mode = mode;
    job.bench = bench;
    job.backend = settings.backend;
    job.problem_dir = std::filesystem::absolute(spec.dir).string();
    job.solution = std::filesystem::absolute(solution).string();
    job.reference = std::filesystem::absolute(reference).string();
    for (;;) {
        job.tests.clear();
        for (int index : tests)
            if (reports.at(index).result == verdict::skipped) job.tests.push_back(index);
        if (job.tests.empty()) break;
        // A crash ends one runner; a fresh one takes the remaining tests.
        if (!run_once(spec, job, settings, reports, run)) break;
    }
    for (int index : tests) {
        test_report& report = reports.at(index);
        if (report.result == verdict::skipped && report.message.empty() && !run.no_device)
            report.message = "not run: an earlier test did not finish";
        run.tests.push_back(report);
    }
    return run;
}

judge_run probe_device(const runner_settings& settings) {
    judge_run run;
    runner_job job;
    job.mode = runner_mode::probe;
    temp_dir work("probe");
    runner_process runner(settings.runner_exe, job, work.path());
    nlohmann::json message;
    while (runner.next(message, clock::now() + std::chrono::seconds(120)) == runner_process::read_status::message) {
        const std::string kind = message.value("event", "");
        if (kind == event::device) run.device = message;
        if (kind == event::no_device) run.no_device = message.value("message", "no device");
        if (kind == event::fatal) run.no_device = message.value("message", "the runner failed");
    }
    const child_exit exit = runner.finish(true);
    if (run.device.is_null() && !run.no_device)
        run.no_device = fmt::format("the device probe failed ({})", exit.describe());
    return run;
}

verdict overall_verdict(const std::vector<test_report>& tests) {
    for (const auto& test : tests)
        if (test.result != verdict::accepted) return test.result == verdict::skipped ? verdict::time_limit_exceeded : test.result;
    return verdict::accepted;
}

}  // namespace gpujudge
