#include "judging/submission.hpp"

#include "base/content_hash.hpp"
#include "base/user_errors.hpp"
#include "bench/device_probe.hpp"
#include "catalog/catalog.hpp"
#include "judging/wrong_answer_causes.hpp"
#include "references/timed_data.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <future>

namespace gpujudge {

namespace {

std::vector<reference_outputs::item> own_data_of(const problem_spec& spec, const std::vector<int>& tests) {
    std::vector<reference_outputs::item> items;
    for (const int index : tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        if (test.kind != test_kind::example) items.push_back({index, own_data(test), {}});
    }
    return items;
}

// The judge job for `tests`: which tests, on which data. Their expected outputs stay with the judge.
judge_job judge_job_for(const problem_spec& spec, const judge_options& options) {
    judge_job job;
    job.stop_at_failure = options.stop_at_failure;
    job.exact_buffers = options.exact_buffers;
    for (const int index : options.tests)
        job.tests.push_back({index, own_data(spec.tests.at(static_cast<std::size_t>(index)))});
    return job;
}

// Each test's expected outputs, read into the judge: the examples' literal ones from problem.yaml,
// the others' from the files the reference wrote (in the order of own_data_of).
expected_by_test expected_outputs_for(const problem_spec& spec, const std::vector<int>& tests,
                                      const std::vector<std::filesystem::path>& files) {
    expected_by_test expected;
    std::size_t next = 0;
    for (const int index : tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        expected.emplace(index, test.kind == test_kind::example ? literal_outputs(spec, test)
                                                                : read_outputs(files.at(next++), spec, test.scalars));
    }
    return expected;
}

// The reference points' figures (the baseline and the PyTorch one-liner), fixed before any code of the
// submission is loaded: work it leaves running (a thread, a kernel on a stream of its own) could
// otherwise slow a reference timed beside it. The baseline needs a device; the one-liner runs on
// the host backend too.
struct reference_points {
    std::optional<bench_entry> baseline, torch;
};

// Whether the timed runs are compared with the PyTorch one-liner, where the problem has one.
bool wants_torch(const judge_options& options) {
    return options.timed && options.with_baseline && options.with_torch;
}

// The Python the one-liner runs in, found (0.1 to 0.3 s) beside the compiler and the references
// rather than after them; torch_entry then finds it found. Nothing when the one-liner is not wanted.
std::future<void> find_python_ahead(const problem_spec& spec, const judge_options& options,
                                    const judge_context& context) {
    if (!wants_torch(options) || !torch_source(context.home, spec.slug)) return {};
    return std::async(std::launch::async, [cache_dir = context.compiler.cache_dir] {
        try {
            find_python(cache_dir);
        } catch (const environment_error&) {  // said, if wanted, where the column is left out
        }
    });
}

reference_points fixed_references(const problem_spec& spec, const judge_options& options,
                                  const std::shared_future<timed_plan>& plan, double peak_gbps, judge_context& context,
                                  const judgement& result) {
    if (!options.with_baseline || !plan.valid()) return {};
    const plan_source chosen = [&]() -> const timed_plan& {
        context.timings.measure("waiting for timed data", [&] { plan.wait(); });
        return plan.get();
    };
    reference_points points;
    if (result.device)
        points.baseline = baseline_entry(spec, chosen, context, context.results, *result.device, peak_gbps);
    if (wants_torch(options))
        points.torch = torch_entry(spec, chosen, context, context.results, result.device ? result.device->uuid : "host",
                                   peak_gbps);
    return points;
}

// Times the loaded submission on the reference points' secret data sets, against their figures.
bench_report time_submission(const problem_spec& spec, const std::filesystem::path& source, runner_session& session,
                             const timed_plan& plan, double peak_gbps, reference_points references,
                             judge_context& context, const judgement& result) {
    bench_report report;
    report.problem = spec.slug;
    report.device = result.device;
    report.peak_gbps = peak_gbps;
    bench_entry mine;
    mine.source = source;
    mine.compile = result.compile;
    mine.figures = context.timings.measure("timed runs", [&] { return time_loaded(session, spec, plan, peak_gbps); });
    if (references.baseline) wall_clock_check(*references.baseline, mine);
    if (!deciding_run(mine))
        for (auto* point : {&references.baseline, &references.torch})
            if (*point) report.entries.push_back(std::move(**point));
    report.entries.push_back(std::move(mine));
    add_speedups(report);
    return report;
}

void record_timed(const problem_spec& spec, const bench_report& report, const judge_options& options,
                  judge_context& context) {
    const std::string device_name = report.device ? report.device->name : "host";
    const std::string device_uuid = report.device ? report.device->uuid : "host";
    const std::string version = problem_version(spec);
    for (const auto& entry : report.entries) {
        if (entry.cached || entry.torch) continue;  // the one-liner's figures are kept as a reference point's only
        for (const auto& f : entry.figures)
            if (f.result == verdict::accepted)
                context.results->record({spec.slug, entry.source.string(), options.origin, entry.baseline, device_name,
                                         device_uuid, f.test, f.median_us / 1e3, f.mean_us / 1e3, f.min_us / 1e3,
                                         f.samples, f.gbps, f.speedup, version});
    }
}

// Whether this judgement's times may become bests: a submit's that judged every test. `submit --tests`
// times the benchmarks after only some tests passed (a file wrong on every example was kept as the
// fastest), and `profile` judges one test, with no baseline's cycle to check its own against.
bool times_count(const problem_spec& spec, const judge_options& options) {
    return options.origin == "submit" && options.tests.size() == spec.tests.size();
}

// The attempt as the history keeps it: the verdict, the tests passed and, where its times count, the
// headline's figures (history's personal bests are the attempts' fastest).
attempt attempt_of(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
                   const judgement& result) {
    attempt a;
    a.problem = spec.slug;
    a.source = std::filesystem::absolute(source).string();
    a.source_hash = result.source_hash;
    a.origin = options.origin;
    a.outcome = result.overall;
    a.total = static_cast<int>(result.tests.size());
    if (result.judged()) a.passed = static_cast<int>(result.passed());
    a.device_name = result.device ? result.device->name : result.no_device ? "" : "host";
    a.problem_version = problem_version(spec);
    const bench_entry* mine = submission_entry(result);
    const auto headline = headline_test(spec);
    if (!mine || !headline || !times_count(spec, options)) return a;
    for (const auto& f : mine->figures)
        if (f.test == *headline && f.result == verdict::accepted) {
            a.test = f.test;
            a.median_us = f.median_us;
            a.gbps = f.gbps;
            if (f.percent_of_peak > 0) a.percent_of_peak = f.percent_of_peak;  // 0: no known ceiling
        }
    return a;
}

// Keeps what the history should know of this judgement: its timed results, and the attempt itself.
void keep(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
          judge_context& context, const judgement& result) {
    if (!context.results) return;
    try {
        // A judgement that is not accepted keeps no time: a cheat's figures never become a best.
        if (result.bench && result.overall == verdict::accepted && times_count(spec, options))
            record_timed(spec, *result.bench, options, context);
        if (options.keep_attempt) context.results->record_attempt(attempt_of(spec, source, options, result));
    } catch (const std::exception& error) {
        spdlog::warn("{}; this attempt is not kept", error.what());
    }
}

// Runs the examples first (one that fails ends the judging, unless told to go on), then the other tests.
void run_tests(const problem_spec& spec, const judge_options& options, const expected_by_test& expected,
               runner_session& session, judgement& result) {
    const judge_job job = judge_job_for(spec, options);
    judge_job examples = job, rest = job;
    examples.tests.clear();
    rest.tests.clear();
    for (const auto& test : job.tests)
        (spec.tests[static_cast<std::size_t>(test.test)].kind == test_kind::example ? examples : rest)
            .tests.push_back(test);
    const auto failed = [&] {
        return std::any_of(result.tests.begin(), result.tests.end(), [](const test_report& t) {
            return t.result != verdict::accepted && t.result != verdict::skipped;
        });
    };
    if (!examples.tests.empty() &&
        (!session.judge(examples, expected, result.tests) || (job.stop_at_failure && failed())))
        return;
    if (!rest.tests.empty()) session.judge(rest, expected, result.tests);
}

// Drops the timed data still being chosen when judging ends early (the submission failed).
struct cancel_on_exit {
    reference_outputs& references;
    ~cancel_on_exit() { references.cancel(); }
};

// The timed runs' secret data sets, chosen from the start, beside the compiler and the tests; none
// when the submission is not timed.
std::future<timed_plan> plan_in_background(const problem_spec& spec, const judge_options& options,
                                           reference_outputs& references,
                                           std::shared_future<std::vector<std::filesystem::path>> expected,
                                           phase_timings& timings) {
    if (!options.timed || !headline_test(spec)) return {};
    return std::async(std::launch::async, [&spec, &options, &references, expected, &timings] {
        expected.wait();  // one reference process at a time: the tests' own outputs first
        return timings.measure("timed data", [&] {
            std::mt19937_64 secret = fresh_secret();
            return plan_timed_runs(spec, references, options.timing, secret, options.timed_tests);
        });
    });
}

// After a wrong answer, its likely cause from the inputs or the reference (wrong_answer_causes.hpp).
// The timed data is no longer wanted: its reference work stops first.
void find_cause(const problem_spec& spec, const std::filesystem::path& reference, reference_outputs& references,
                const std::map<int, named_arrays>& wrong_outputs, judge_context& context, judgement& result) {
    const test_report* decider = deciding_test(result.tests);
    if (spec.diagnosis.empty() || wrong_outputs.empty() || !decider || decider->result != verdict::wrong_answer) return;
    references.cancel();
    reference_outputs again(spec, reference, context.compiler.cache_dir, context.runner);
    context.timings.measure("likely cause", [&] { add_wrong_answer_cause(spec, again, wrong_outputs, result.tests); });
}

// Loads the compiled library. A file that cannot be called as solve (Python's syntax, signature)
// did not compile; a library that does not load fails the first test.
bool load_submission(runner_session& session, judgement& result) {
    if (auto failure = load_solution(session, result.compile)) {
        result.tests.front().result = verdict::runtime_error;
        result.tests.front().message = *failure;
        return false;
    }
    return result.compile.ok;
}

// nvcc needs the GPU's architecture, which the runner reports once it has opened the device (a
// quarter of a second). The last one seen is the guess to start compiling with; a wrong guess
// (another GPU, or a file the submission rewrote) costs a second compile, never a wrong library.
std::filesystem::path arch_file(const compiler_settings& compiler) {
    return compiler.cache_dir / "last-arch";
}

compile_result compile_for_device(const problem_spec& spec, const std::filesystem::path& source,
                                  runner_session& session, judge_context& context, judgement& result) {
    phase_timings& timings = context.timings;
    std::optional<compile_result> compiled;
    const std::string guess = last_seen_arch(context.compiler);
    if (!guess.empty()) {
        context.compiler.arch = guess;
        compiled = timings.measure("compile", [&] { return compile_solution(spec, source, context.compiler); });
    }
    result.device = timings.measure("device start", [&] { return session.device(); });
    result.no_device = session.no_device();
    if (result.device && result.device->arch != guess) {
        context.compiler.arch = result.device->arch;
        std::ofstream(arch_file(context.compiler)) << result.device->arch << "\n";
        compiled.reset();
    }
    if (!compiled)
        compiled = timings.measure("compile", [&] { return compile_solution(spec, source, context.compiler); });
    return *compiled;
}

// judge_submission, up to the decision: what is kept of it is not its business.
judgement judge_decided(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
                        judge_context& context) {
    judgement result;
    phase_timings& timings = context.timings;
    result.tests = pending_reports(spec, options.tests);
    tell(context.progress, {progress_step::stage::compiling, 0, 0, ""});
    // The runner opens the device while the references and the compiler run.
    runner_session session(spec, runner_for(context.runner, source));
    session.report_progress(context.progress);
    const std::future<void> python = find_python_ahead(spec, options, context);
    const auto reference = timings.measure("reference build", [&] { return build_reference(spec, context); });
    reference_outputs references(spec, reference, context.compiler.cache_dir, context.runner);
    std::shared_future<std::vector<std::filesystem::path>> expected = std::async(std::launch::async, [&] {
        return timings.measure("references", [&] { return references.ensure(own_data_of(spec, options.tests)); });
    });
    const std::shared_future<timed_plan> plan =
        plan_in_background(spec, options, references, expected, timings).share();
    const cancel_on_exit drop_plan{references};  // before `plan` waits for its thread
    const bool on_device = context.runner.backend == runner_backend::device;
    result.compile =
        on_device ? compile_for_device(spec, source, session, context, result)
                  : timings.measure("compile", [&] { return compile_host(spec, source, "solve", context.compiler); });
    // The bytes compiled, read once by the compiler (a refused file's as it is now), before anything runs.
    result.source_hash = result.compile.source_hash.empty() ? file_hash(source) : result.compile.source_hash;
    tell(context.progress, {progress_step::stage::references, 0, 0, ""});
    const expected_by_test expected_outputs = expected_outputs_for(spec, options.tests, expected.get());
    if (!result.judged()) {
        decide(result);
        return result;
    }
    const std::optional<double> peak = device_ceiling(session, result.device, context);
    reference_points points = fixed_references(spec, options, plan, peak.value_or(0), context, result);
    if (plan.valid())  // the harness's share of each timed call, measured while the runner holds no code of solve's
        timings.measure("harness cycles",
                        [&] { session.calibrate(calibration_job(spec, options.timing, options.timed_tests)); });
    if (timings.measure("load", [&] { return load_submission(session, result); })) {
        timings.measure("judged calls", [&] { run_tests(spec, options, expected_outputs, session, result); });
        // Its runner ends before the reference runs again for the cause: a red team's solve held every
        // PID of the machine (a root judge's sandbox has no task limit), the reference's sandbox could
        // not start, and the problem was blamed for a whole grade.
        if (deciding_test(result.tests)) timings.measure("runner exit", [&] { session.close(); });
        find_cause(spec, reference, references, session.wrong_outputs(), context, result);
        if (plan.valid() && !deciding_test(result.tests)) {
            timings.measure("waiting for timed data", [&] { plan.wait(); });
            const timed_plan& chosen = plan.get();
            result.bench =
                time_submission(spec, source, session, chosen, peak.value_or(0), std::move(points), context, result);
        }
    }
    for (auto& test : result.tests)
        if (test.result == verdict::skipped && test.message.empty()) test.message = "not run after the first failure";
    timings.measure("runner exit", [&] { session.close(); });
    result.program_output = session.output_tail();
    decide(result);
    return result;
}

}  // namespace

std::string last_seen_arch(const compiler_settings& compiler) {
    std::ifstream file(arch_file(compiler));
    std::string arch;
    file >> arch;
    return arch;
}

judgement judge_submission(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options,
                           judge_context& context) {
    judgement result = judge_decided(spec, source, options, context);
    context.timings.measure("history", [&] { keep(spec, source, options, context, result); });
    return result;
}

std::size_t judgement::passed() const {
    return static_cast<std::size_t>(
        std::count_if(tests.begin(), tests.end(), [](const test_report& t) { return t.result == verdict::accepted; }));
}

const bench_entry* submission_entry(const judgement& result) {
    if (!result.bench) return nullptr;
    for (const auto& entry : result.bench->entries)
        if (!entry.baseline && !entry.torch) return &entry;
    return nullptr;
}

void decide(judgement& result) {
    result.reason.clear();
    if (!result.compile.ok) {
        result.overall = verdict::compile_error;
        return;
    }
    if (result.no_device) {
        result.overall = verdict::no_device;
        result.reason = *result.no_device;
        return;
    }
    if (const test_report* test = deciding_test(result.tests)) {
        // A test left skipped with none failed before it: the runner stopped without a word.
        result.overall = test->result == verdict::skipped ? verdict::runtime_error : test->result;
        result.reason = fmt::format("test '{}': {}", test->name, test->message);
        return;
    }
    if (const bench_entry* mine = submission_entry(result))
        if (const bench_figures* failed = deciding_run(*mine)) {
            result.overall = failed->result;
            result.reason = fmt::format("timed run on '{}': {}", failed->test, failed->message);
            return;
        }
    result.overall = verdict::accepted;
}

std::vector<attempt> personal_bests(const history& results, const std::vector<problem_spec>& specs) {
    std::vector<attempt> bests;
    for (const auto& spec : specs)
        if (auto best = results.best_attempt(spec.slug, problem_version(spec))) bests.push_back(std::move(*best));
    return bests;
}

}  // namespace gpujudge
