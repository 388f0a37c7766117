#include "benchmarking.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "shared_library.hpp"
#include "test_data.hpp"

#include <fmt/format.h>

#include <atomic>
#include <thread>

namespace gpujudge {

namespace {

struct problem_check {
    std::string name;
    std::optional<problem_spec> spec;
    std::vector<solution_file> solutions;
    std::vector<compile_result> builds;
    std::vector<std::string> errors;
};

// Runs `work(i)` for i in [0, count) on `jobs` threads.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work) {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::max(1u, jobs); ++t)
        threads.emplace_back([&] {
            for (std::size_t i; (i = next++) < count;) work(i);
        });
    for (auto& thread : threads) thread.join();
}

void check_reference(problem_check& check, judge_context& context) {
    const problem_spec& spec = *check.spec;
    try {
        const shared_library library(build_reference(spec, context).string());
        const c_function reference(library.symbol("reference"), spec.params);
        for (const auto& test : spec.tests) {
            if (test.kind != test_kind::example) continue;
            const test_data data = prepare_test(spec, test, reference);
            for (const auto& failure : compare_outputs(spec, data, run_on_host(spec, data, reference)))
                check.errors.push_back(fmt::format("{}:{}: the reference disagrees with example '{}': {}", spec.yaml_path,
                                                   test.line, test.name, failure.describe()));
        }
    } catch (const std::exception& error) {
        check.errors.push_back(error.what());
    }
}

void check_build(problem_check& check, std::size_t i) {
    const solution_file& solution = check.solutions[i];
    const compile_result& build = check.builds[i];
    const bool expect_failure = solution.expected == verdict::compile_error;
    if (build.ok == !expect_failure) return;
    check.errors.push_back(build.ok ? fmt::format("{}: expected compile_error, but it compiles", solution.path.string())
                                    : fmt::format("{}: does not compile:\n{}", solution.path.string(), build.diagnostics));
}

// A few timed runs on each benchmark size, with other data in other buffers each time: enough to
// catch answers cached between calls, and to give a rough median. Returns the failing verdict,
// and the median on the last (largest) benchmark in `median_us`.
verdict verify_timed_runs(const problem_spec& spec, submission_result& result, judge_context& context,
                          double& median_us) {
    const std::vector<int> tests = select_tests(spec, {test_kind::benchmark});
    if (tests.empty()) return verdict::accepted;
    const nlohmann::json quick = {{"data_sets", 3}, {"slots", 2},        {"warmup", 2},
                                  {"warmup_s", 0.1}, {"min_samples", 10}, {"min_time_s", 0.0},
                                  {"budget_s", 0.2}};
    const judge_run timed = run_tests(spec, result.compile.library, build_reference(spec, context), tests,
                                      context.runner, runner_mode::bench, quick);
    for (const auto& test : timed.tests) {
        if (test.result != verdict::accepted) {
            result.run.tests.push_back(test);
            return test.result;
        }
        median_us = test.stats.value("median_ms", 0.0) * 1e3;
    }
    return verdict::accepted;
}

// Submits every solution that compiled and compares its verdict with the declared one.
void run_solutions(problem_check& check, judge_context& context, style look) {
    for (std::size_t i = 0; i < check.solutions.size(); ++i) {
        const solution_file& solution = check.solutions[i];
        if (!check.builds[i].ok || !solution.expected) continue;
        submission_result result = judge_submission(*check.spec, solution.path, select_tests(*check.spec, {}), context);
        double median_us = 0;
        if (result.overall == verdict::accepted)
            result.overall = verify_timed_runs(*check.spec, result, context, median_us);
        const bool as_declared = result.overall == *solution.expected;
        fmt::print("  {:<40} {:<22} {:<20} {}\n", solution.path.filename().string(), styled_verdict(result.overall, look),
                   as_declared ? "as declared" : fmt::format("DECLARED {}", to_string(*solution.expected)),
                   median_us > 0 ? fmt::format("{:.1f} µs at {}", median_us, headline_test(*check.spec).value_or(""))
                                 : "");
        if (!as_declared) {
            std::string detail;
            for (const auto& test : result.run.tests)
                if (test.result != verdict::accepted) {
                    detail = fmt::format(" (test '{}': {})", test.name, test.message);
                    break;
                }
            check.errors.push_back(fmt::format("{}: declared {}, judged {}{}", solution.path.string(),
                                               to_string(*solution.expected), to_string(result.overall), detail));
        }
    }
}

}  // namespace

command_action define_validate(CLI::App& command) {
    struct options {
        std::vector<std::string> targets;
        bool run = false;
        unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    };
    auto opts = std::make_shared<options>();
    command.add_option("problems", opts->targets, "Problem slugs or folders (default: all)");
    command.add_flag("--run", opts->run, "Also submit every solution on the GPU and check its declared verdict");
    command.add_option("-j,--jobs", opts->jobs, "Compilations at once");
    return [opts](cli_context& context) {
        std::vector<std::string> targets = opts->targets;
        if (targets.empty())
            for (const auto& dir : list_problems(context.judge.home)) targets.push_back(dir.filename().string());
        if (opts->run) {
            const judge_run& device = context.judge.device();
            if (device.no_device) {
                fmt::print("validate --run: skipped, no GPU: {}\n", *device.no_device);
                return static_cast<int>(exit_no_device);
            }
        }
        std::vector<problem_check> checks(targets.size());
        // Every solution of every problem compiles in one parallel pass.
        std::vector<std::pair<std::size_t, std::size_t>> builds;
        for (std::size_t p = 0; p < targets.size(); ++p) {
            problem_check& check = checks[p];
            check.name = targets[p];
            try {
                check.spec = load_problem(resolve_problem(context.judge.home, targets[p]));
            } catch (const std::exception& error) {
                check.errors.push_back(error.what());
                continue;
            }
            if (!std::filesystem::exists(check.spec->dir / "statement.md"))
                check.errors.push_back(fmt::format("{}: missing", (check.spec->dir / "statement.md").string()));
            check_reference(check, context.judge);
            check.solutions = list_solutions(context.judge.home, check.spec->slug);
            check.builds.resize(check.solutions.size());
            for (std::size_t s = 0; s < check.solutions.size(); ++s) {
                if (!check.solutions[s].header_error.empty())
                    check.errors.push_back(fmt::format("{}: {}", check.solutions[s].path.string(), check.solutions[s].header_error));
                builds.emplace_back(p, s);
            }
        }
        parallel_for(builds.size(), opts->jobs, [&](std::size_t i) {
            auto [p, s] = builds[i];
            checks[p].builds[s] = compile_solution(*checks[p].spec, checks[p].solutions[s].path, context.judge.compiler);
        });
        int exit = exit_accepted;
        for (auto& check : checks) {
            for (std::size_t s = 0; s < check.builds.size(); ++s) check_build(check, s);
            if (opts->run && check.spec && check.errors.empty()) {
                fmt::print("{}:\n", check.name);
                run_solutions(check, context.judge, context.look);
            }
            if (check.errors.empty()) {
                std::size_t count[3] = {0, 0, 0};
                for (const auto& test : check.spec->tests) ++count[static_cast<int>(test.kind)];
                fmt::print("ok    {:<28} {} examples, {} functional, {} benchmarks; {} solutions\n", check.name, count[0],
                           count[1], count[2], check.solutions.size());
            } else {
                exit = exit_invalid_problem;
                fmt::print("FAIL  {}\n", check.name);
                for (const auto& error : check.errors) fmt::print("  {}\n", error);
            }
        }
        return exit;
    };
}

}  // namespace gpujudge
