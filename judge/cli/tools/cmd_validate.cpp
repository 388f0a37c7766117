#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/progress.hpp"
#include "base/user_errors.hpp"
#include "bench/device_probe.hpp"
#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "catalog/solution_path.hpp"
#include "checks/test_data.hpp"
#include "cli/commands.hpp"
#include "compile/compiler.hpp"
#include "compile/error_reason.hpp"
#include "judging/declared_outcome.hpp"
#include "references/timed_data.hpp"
#include "sanitize/run.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

namespace gpujudge {

namespace {

struct problem_check {
    std::string name;
    std::optional<problem_spec> spec;
    std::optional<std::filesystem::path> home;  // whose solutions/<slug>/ go with it; none: no home's
    std::vector<solution_file> solutions;
    std::vector<compile_result> builds;
    std::vector<std::string> unloaded;  // per solution: why a Python file was not loaded here; empty: it was
    std::vector<std::string> errors;
};

// Runs `work(i)` for i in [0, count) on `jobs` threads; the first exception (nvcc missing) stops the
// work and is rethrown here, where main can report it, instead of ending the program in a thread.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    std::vector<std::thread> threads;
    const std::size_t threads_needed = std::min<std::size_t>(std::max(1u, jobs), std::max<std::size_t>(count, 1));
    for (std::size_t t = 0; t < threads_needed; ++t)
        threads.emplace_back([&] {
            try {
                for (std::size_t i; (i = next++) < count;) work(i);
            } catch (...) {
                next = count;
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
            }
        });
    for (auto& thread : threads) thread.join();
    if (first_error) std::rethrow_exception(first_error);
}

// "reference.cpp: example 'ex' (problem.yaml:21): 1 of 1 elements of 'output' differ from the example's
// expected values", then the first differences, one a line.
std::string disagreement(const problem_spec& spec, const test_spec& test, const comparison& failure) {
    std::string text = fmt::format(
        "{}: example '{}' ({}:{}): {} of {} elements of '{}' differ from the example's "
        "expected values",
        (spec.dir / "reference.cpp").string(), test.name, spec.yaml_path, test.line, failure.num_mismatches,
        failure.num_items, failure.output);
    if (failure.atol != 0 || failure.rtol != 0)
        text += fmt::format(" (tolerance: atol {:.3g} + rtol {:.3g} * |expected|)", failure.atol, failure.rtol);
    const std::string details = failure.describe();  // its first line speaks of a submission
    const std::size_t newline = details.find('\n');
    return newline == std::string::npos ? text : text + details.substr(newline);
}

// "reference.cpp: test 'N = 5': two runs of the reference differ at 'output'[0]: ...". Not the values:
// those of a random reference differ every time validate runs.
std::string nondeterminism(const problem_spec& spec, const test_spec& test, const comparison& failure) {
    return fmt::format(
        "{}: test '{}': two runs of the reference differ at '{}'[{}]: a reference must give the same "
        "outputs every run (no rand(), no state kept from call to call, no read outside its inputs)",
        (spec.dir / "reference.cpp").string(), test.name, failure.output, failure.first_mismatches.at(0).index);
}

// Tests whose buffers are larger are not run twice: rand() or a call counter shows at any size, and
// reduction's N = 100M test alone cost validate 2 s more on every run.
constexpr std::size_t kTwiceBytes = std::size_t{64} << 20;

// The functional tests' outputs again, in a second reference process and in reverse order: outputs
// that differ (rand(), a call counter, a race) would be cached, and every learner judged by one draw.
void check_deterministic(problem_check& check, reference_outputs& references,
                         const std::vector<reference_outputs::item>& functional,
                         const std::vector<std::filesystem::path>& first) {
    const problem_spec& spec = *check.spec;
    std::vector<std::size_t> small;  // positions in `functional`
    for (std::size_t i = 0; i < functional.size(); ++i)
        if (spec.buffer_bytes(spec.tests[static_cast<std::size_t>(functional[i].test)].scalars) <= kTwiceBytes)
            small.push_back(i);
    std::vector<reference_outputs::item> reversed;
    for (auto it = small.rbegin(); it != small.rend(); ++it) reversed.push_back(functional[*it]);
    auto again = references.ensure(reversed, true);
    std::reverse(again.begin(), again.end());
    for (std::size_t k = 0; k < small.size(); ++k) {
        const std::size_t i = small[k];
        const test_spec& test = spec.tests[static_cast<std::size_t>(functional[i].test)];
        const auto failures = compare_outputs(spec, test.scalars, read_outputs(first[i], spec, test.scalars),
                                              read_outputs(again[k], spec, test.scalars));
        if (failures.empty()) continue;
        check.errors.push_back(nondeterminism(spec, test, failures.front()));
        return;
    }
}

// The reference, in a process of its own, against every example's literal outputs; it must also
// finish every functional test (and, with `benchmarks`, every benchmark) with all outputs written,
// and give the functional tests' outputs again in a second process.
void check_reference(problem_check& check, judge_context& context, bool benchmarks) {
    const problem_spec& spec = *check.spec;
    try {
        reference_outputs references(spec, build_reference(spec, context), context.compiler.cache_dir, context.runner);
        const auto generated = [&](test_kind kind) {
            std::vector<reference_outputs::item> items;
            for (const int index : select_tests(spec, {kind}))
                items.push_back({index, own_data(spec.tests[static_cast<std::size_t>(index)]), {}});
            return items;
        };
        const std::vector<int> examples = select_tests(spec, {test_kind::example});
        std::vector<reference_outputs::item> items;
        for (const int index : examples)
            items.push_back({index, {spec.tests[static_cast<std::size_t>(index)].seed, {}}, {}});
        const std::vector<reference_outputs::item> functional = generated(test_kind::functional);
        items.insert(items.end(), functional.begin(), functional.end());
        if (benchmarks)
            for (const auto& item : generated(test_kind::benchmark)) items.push_back(item);
        const auto paths = references.ensure(items);
        for (std::size_t i = 0; i < examples.size(); ++i) {
            const test_spec& test = spec.tests[static_cast<std::size_t>(examples[i])];
            const named_arrays got = read_outputs(paths[i], spec, test.scalars);
            for (const auto& failure : compare_outputs(spec, test.scalars, literal_outputs(spec, test), got))
                check.errors.push_back(disagreement(spec, test, failure));
        }
        const auto first = paths.begin() + static_cast<std::ptrdiff_t>(examples.size());
        check_deterministic(check, references, functional,
                            {first, first + static_cast<std::ptrdiff_t>(functional.size())});
    } catch (const environment_error&) {
        throw;  // the machine's fault, not the problem's
    } catch (const std::exception& error) {
        check.errors.push_back(error.what());
    }
}

void check_build(problem_check& check, std::size_t i) {
    const solution_file& solution = check.solutions[i];
    const compile_result& build = check.builds[i];
    const bool expect_failure = solution.expected == verdict::compile_error;
    if (build.ok == !expect_failure || !check.unloaded[i].empty()) return;  // unloaded: the ok line tells
    if (build.source_refused) {  // its header could not be read either: said once, in the compiler's words
        if (solution.header_error != kUnreadableFile)
            check.errors.push_back(build.diagnostics.substr(0, build.diagnostics.find_last_not_of('\n') + 1));
        return;
    }
    check.errors.push_back(build.ok
                               ? fmt::format("{}: expected compile_error, but it compiles", solution.path.string())
                               : fmt::format("{}: does not compile:\n{}", solution.path.string(), build.diagnostics));
}

// What validate prints beside a judged solution: "as declared", or what it declared and did not show.
std::string declared_label(const solution_file& solution, const judgement& result, bool mismatch) {
    if (!mismatch) return "as declared";
    if (solution.cause && result.overall == solution.expected)
        return fmt::format("DECLARED {}", to_string(*solution.cause));
    if (solution.timed_unblocked && result.overall == solution.expected) return "DECLARED timed: unblocked";
    return fmt::format("DECLARED {}", declared_verdict(solution));
}

// Judges every solution that compiled as submit does (timed runs quick) and compares its verdict
// with the declared one. The host backend judges host sources: a .cu file needs the device one.
void run_solutions(problem_check& check, judge_context& context, style look) {
    const problem_spec& spec = *check.spec;
    const judge_options options = validate_options(spec);
    for (std::size_t i = 0; i < check.solutions.size(); ++i) {
        const solution_file& solution = check.solutions[i];
        if (!check.builds[i].ok || (!solution.expected && !solution.rejected)) continue;
        if (context.runner.backend == runner_backend::host && solution.path.extension() == ".cu") {
            fmt::print("  {:<40} skipped: a .cu solution needs the device backend\n",
                       solution.path.filename().string());
            continue;
        }
        const judgement result = judge_submission(spec, solution.path, options, context);
        const bench_entry* timed = submission_entry(result);
        const auto mismatch = declaration_mismatch(solution, result);
        const auto cause = shown_cause(result);
        const double median_us = timed && !timed->figures.empty() ? timed->figures.back().median_us : 0;
        fmt::print("  {:<40} {:<22} {:<16} {:<20} {}\n", solution.path.filename().string(),
                   styled_verdict(result.overall, look), cause ? to_string(*cause) : "",
                   declared_label(solution, result, mismatch.has_value()),
                   median_us > 0 ? fmt::format("{:.1f} µs at {}", median_us, headline_test(spec).value_or("")) : "");
        std::fflush(stdout);
        if (!mismatch) continue;
        const bool uncompiled = result.overall == verdict::compile_error && solution.expected != verdict::compile_error;
        check.errors.push_back(fmt::format("{}: {}{}", solution.path.string(), *mismatch,
                                           uncompiled ? ": " + compile_error_reason(result.compile.diagnostics) : ""));
    }
}

bool reports_line(const sanitizer_findings& findings, const std::filesystem::path& source, int line) {
    return std::any_of(findings.submission.begin(), findings.submission.end(), [&](const sanitizer_finding& f) {
        return !f.at.empty() && f.at.front().site.file == source.string() && f.at.front().site.line == line;
    });
}

// What the tool reported instead of the declared line: its verdict, and the places it named.
std::string reported_instead(const sanitize_result& result) {
    std::string text = decide_sanitize(result).line;
    for (const auto& finding : result.findings.submission)
        if (!finding.at.empty())
            text += fmt::format("; {}:{}", finding.at.front().site.file, finding.at.front().site.line);
    return text;
}

// Runs every solution that declares "// sanitize: <tool>" under that tool, which must report the
// line marked "// <- sanitize: <tool>".
void sanitize_solutions(problem_check& check, judge_context& context) {
    for (std::size_t i = 0; i < check.solutions.size(); ++i) {
        const solution_file& solution = check.solutions[i];
        if (!check.builds[i].ok) continue;
        for (const auto& expected : solution.sanitize) {
            const sanitize_result result = sanitize_submission(*check.spec, solution.path, expected.tool, context);
            const bool found = reports_line(result.findings, solution.path, expected.line);
            fmt::print("  {:<40} {:<10} line {:<5} {}\n", solution.path.filename().string(), expected.tool,
                       expected.line, found ? "reported, as declared" : "NOT REPORTED");
            std::fflush(stdout);
            if (!found)
                check.errors.push_back(fmt::format("{}:{}: declared that {} reports this line; it reported: {}",
                                                   solution.path.string(), expected.line, expected.tool,
                                                   reported_instead(result)));
        }
    }
}

// The home a problem folder is in (<home>/problems/<slug>), if it is in one: its solutions are the
// folder's, never those of the home validate runs in. Named as given where it can be (paths print so).
std::optional<std::filesystem::path> home_of(const std::filesystem::path& dir) {
    for (std::filesystem::path full : {dir.lexically_normal(), std::filesystem::absolute(dir).lexically_normal()}) {
        if (full.filename().empty()) full = full.parent_path();  // "dir/"
        if (full.parent_path().filename() != "problems") continue;
        const std::filesystem::path home = full.parent_path().parent_path();
        return home.empty() ? "." : home;
    }
    return std::nullopt;
}

std::vector<problem_check> load_checks(const std::vector<std::string>& targets, const std::filesystem::path& home) {
    std::vector<problem_check> checks(targets.size());
    for (std::size_t p = 0; p < targets.size(); ++p) {
        problem_check& check = checks[p];
        check.name = targets[p];
        // An unknown name is a usage error here as in every command, not a failed problem.
        const std::filesystem::path dir = resolve_problem(home, targets[p]);
        check.home = home_of(dir);
        try {
            check.spec = load_problem(dir);
        } catch (const std::exception& error) {
            check.errors.push_back(error.what());
        }
    }
    return checks;
}

// validate --run judges on the GPU: its architecture for nvcc, or the reason there is none.
std::optional<std::string> choose_device(const std::vector<problem_check>& checks, judge_context& context) {
    for (const auto& check : checks) {
        if (!check.spec) continue;
        runner_session probe(*check.spec, context.runner);
        return adopt_device(probe, context.compiler);
    }
    return std::nullopt;
}

// What is wrong with the statement, if anything: `show` and the page print it as text.
std::optional<std::string> statement_error(const std::filesystem::path& statement) {
    std::error_code error;
    if (!std::filesystem::exists(statement, error)) return fmt::format("{}: missing", statement.string());
    const auto text = read_file_text(statement);
    if (!text) return fmt::format("{}: {}", statement.string(), kUnreadableFile);
    if (text->find('\0') != std::string::npos)
        return fmt::format("{}: not text: it holds NUL bytes", statement.string());
    return std::nullopt;
}

// `bench` compares every solution with the problem's one baseline: a second is a mistake.
std::vector<std::string> baseline_errors(const std::vector<solution_file>& solutions) {
    std::vector<std::string> errors;
    const solution_file* first = nullptr;
    for (const auto& file : solutions) {
        if (!file.baseline) continue;
        if (first)
            errors.push_back(fmt::format("{}:{}: a second baseline: {}:{} is the problem's baseline",
                                         file.path.string(), file.baseline_line, first->path.string(),
                                         first->baseline_line));
        else
            first = &file;
    }
    return errors;
}

// statement.md, the reference, and the solutions' headers.
void check_files(problem_check& check, judge_context& context, bool benchmarks) {
    if (auto error = statement_error(check.spec->dir / "statement.md")) check.errors.push_back(*error);
    for (const test_spec& test : check.spec->tests)
        if (auto refused = beyond_memory(*check.spec, test)) check.errors.push_back(*refused);
    check_reference(check, context, benchmarks);
    if (!check.home) return;
    check.solutions = list_solutions(*check.home, check.spec->slug);
    check.builds.resize(check.solutions.size());
    check.unloaded.resize(check.solutions.size());
    for (const auto& solution : check.solutions)
        if (!solution.header_error.empty()) check.errors.push_back(describe_header_error(solution));
    for (const auto& error : path_errors(check.solutions)) check.errors.push_back(error);
    for (const auto& error : baseline_errors(check.solutions)) check.errors.push_back(error);
    for (const auto& error : unjudged_sources(*check.home, check.spec->slug)) check.errors.push_back(error);
}

// A Python file "compiles" by a copy: its syntax and solve's parameters are checked where a runner
// imports it. A host runner does that on the CPU, as the judge's load does; where it cannot (no
// Python with torch, or triton, here), the file is left unchecked, and the ok line says so.
void load_python(problem_check& check, std::size_t s, judge_context& context) {
    const std::filesystem::path& source = check.solutions[s].path;
    if (!check.builds[s].ok || !is_python_source(source)) return;
    runner_settings host = context.runner;
    host.backend = runner_backend::host;
    try {
        static std::mutex preparing;  // the first runner_for prepares the Python, in a folder named by the process
        std::unique_lock<std::mutex> lock(preparing);
        const runner_settings python = runner_for(host, source);
        lock.unlock();
        runner_session session(*check.spec, python);
        if (auto failure = load_solution(session, check.builds[s])) check.unloaded[s] = *failure;
    } catch (const environment_error& error) {
        check.unloaded[s] = error.what();
    }
}

// Every solution of every problem compiles (a Python one loads) in one parallel pass.
void compile_solutions(std::vector<problem_check>& checks, judge_context& context, unsigned jobs,
                       const progress_hook& hook) {
    std::vector<std::pair<std::size_t, std::size_t>> builds;
    for (std::size_t p = 0; p < checks.size(); ++p)
        for (std::size_t s = 0; s < checks[p].solutions.size(); ++s) builds.emplace_back(p, s);
    std::atomic<int> started{0};
    parallel_for(builds.size(), jobs, [&](std::size_t i) {
        auto [p, s] = builds[i];
        const solution_file& solution = checks[p].solutions[s];
        tell(hook, {progress_step::stage::compiling, ++started, static_cast<int>(builds.size()),
                    solution.path.filename().string()});
        checks[p].builds[s] = compile_solution(*checks[p].spec, solution.path, context.compiler);
        load_python(checks[p], s, context);
    });
}

// The references and the compiles, before anything is printed: on a terminal, what is going on.
void check_and_compile(std::vector<problem_check>& checks, judge_context& context, unsigned jobs, bool benchmarks) {
    const progress_scope shown(context.progress, false);
    for (std::size_t p = 0; p < checks.size(); ++p) {
        if (!checks[p].spec) continue;
        tell(context.progress, {progress_step::stage::references, static_cast<int>(p + 1),
                                static_cast<int>(checks.size()), checks[p].name});
        context.timings.measure("schema and references", [&] { check_files(checks[p], context, benchmarks); });
    }
    context.timings.measure("compile solutions", [&] { compile_solutions(checks, context, jobs, context.progress); });
}

// ", 2 .py not checked: <why>" where Python files could not be loaded here; nothing where all were.
std::string unloaded_note(const problem_check& check) {
    const auto loaded = [](const std::string& why) { return why.empty(); };
    const auto first = std::find_if_not(check.unloaded.begin(), check.unloaded.end(), loaded);
    if (first == check.unloaded.end()) return "";
    const auto count =
        std::count_if(check.unloaded.begin(), check.unloaded.end(), [&](auto& why) { return !loaded(why); });
    return fmt::format(", {} .py not checked: {}", count, *first);
}

// One line for a problem that passed, its errors for one that did not; its exit code.
int print_outcome(const problem_check& check) {
    if (!check.errors.empty()) {
        fmt::print("FAIL  {}\n", check.name);
        for (const auto& error : check.errors) fmt::print("  {}\n", error);
        return exit_invalid_problem;
    }
    std::size_t count[3] = {0, 0, 0};
    for (const auto& test : check.spec->tests) ++count[static_cast<int>(test.kind)];
    const std::string solutions = check.home
                                      ? fmt::format("{} solutions{}", check.solutions.size(), unloaded_note(check))
                                      : "no solutions looked for (the folder is in no home's problems/)";
    fmt::print("ok    {:<28} {} examples, {} functional, {} benchmarks; {}\n", check.name, count[0], count[1], count[2],
               solutions);
    return exit_accepted;
}

}  // namespace

command_action define_validate(CLI::App& command) {
    struct options {
        std::vector<std::string> targets;
        bool run = false;
        bool sanitize = false;
        unsigned jobs = compiles_at_once(default_compile_limits());
    };
    auto opts = std::make_shared<options>();
    command.add_option("problems", opts->targets, "Problem slugs or folders (default: all)");
    command.add_flag("--run", opts->run, "Also submit every solution on the GPU and check its declared verdict");
    command.add_flag("--sanitize", opts->sanitize,
                     "Also run every solution that declares '// sanitize: <tool>' under compute-sanitizer and check "
                     "that the tool reports the line marked '// <- sanitize: <tool>'");
    command.add_option("-j,--jobs", opts->jobs, "Compilations at once")
        ->check(CLI::Range(1, 1024));  // 50000 threads failed to start: std::terminate, exit 134
    return [opts](cli_context& context) {
        std::vector<std::string> targets = opts->targets;
        if (targets.empty())
            for (const auto& dir : list_problems(context.judge.home)) targets.push_back(dir.filename().string());
        std::vector<problem_check> checks = load_checks(targets, context.judge.home);
        if (opts->run || opts->sanitize)
            if (const auto no_device = choose_device(checks, context.judge)) {
                fmt::print("validate {}: skipped, no GPU: {}\n", opts->run ? "--run" : "--sanitize", *no_device);
                return static_cast<int>(exit_no_device);
            }
        check_and_compile(checks, context.judge, opts->jobs, opts->run);
        int exit = exit_accepted;
        for (auto& check : checks) {
            for (std::size_t s = 0; s < check.builds.size(); ++s) check_build(check, s);
            if ((opts->run || opts->sanitize) && check.spec && check.errors.empty()) {
                fmt::print("{}:\n", check.name);
                try {
                    if (opts->run) run_solutions(check, context.judge, context.look);
                    if (opts->sanitize) sanitize_solutions(check, context.judge);
                } catch (const problem_error& error) {
                    check.errors.push_back(error.what());
                }
            }
            if (print_outcome(check) != exit_accepted) exit = exit_invalid_problem;
        }
        if (opts->run || opts->sanitize) fmt::print("timings: {}\n", context.judge.timings.summary());
        return exit;
    };
}

}  // namespace gpujudge
