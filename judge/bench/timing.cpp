#include "bench/timing.hpp"

#include "base/content_hash.hpp"
#include "base/json_text.hpp"
#include "base/problem_error.hpp"
#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"
#include "references/context.hpp"
#include "references/timed_data.hpp"
#include "runner/protocol.hpp"
#include "timing/clock_choice.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace gpujudge {

namespace {

std::optional<std::filesystem::path> find_baseline(const judge_context& context, const std::string& slug) {
    for (const auto& solution : list_solutions(context.home, slug))
        if (solution.baseline) return solution.path;
    return std::nullopt;
}

// Of a call's bytes, those only written that the L2 can still hold when its clocks stop. The harness
// empties the L2 before every timed call, so each input byte comes from DRAM inside the clocks; but a
// write ends in the L2, which writes it back later. On the H100 an honest kernel that reads 30 MB and
// writes as many reached 103.0 % of the 1 GiB read ceiling in `bench` (tests/fixtures/l2_writes_home).
// An inout buffer is read from DRAM too, however metrics.bytes counts it: none of it is left out.
double writes_the_l2_holds(const problem_spec& spec, const scalar_values& scalars, double l2_bytes) {
    return std::min(static_cast<double>(spec.write_only_bytes(scalars)), std::max(0.0, l2_bytes));
}

// How much of a byte written into the L2 the floor leaves out. Not all of it: writing 41 MB alone took
// 13.2 µs on the H100 against 17.0 µs to read them (timed like solve), 0.78 of a read byte, so a write
// is counted as at least half a read. Left out whole, large outputs would let a time twice too fast
// pass the floor, which is what bounds a replay of answers (README, "What remains possible").
constexpr double kLeftOutOfAWrite = 0.5;

// A run timed by the host clock is held to the floor by that clock with the empty call's overhead left
// on: no work of a call starts before it does, while the overhead taken off it is an estimate, good to a
// few µs (on the H100 an honest reduction on a private stream read 62.4 µs at 200 MB, under its 63.2 µs
// floor). The runner reports that overhead, so no more of it than an estimate's error is believed: a
// forged result claiming seconds of overhead passed any floor.
constexpr double kMostOverheadBelievedUs = 5;

void refuse_below_floor(bench_figures& f, double bytes, double held_in_l2, double peak_gbps, double host_overhead_us) {
    if (peak_gbps <= 0 || f.result != verdict::accepted) return;
    const double floor_us =
        std::max(0.0, bytes - kLeftOutOfAWrite * held_in_l2) / (peak_gbps * (1 + kFloorMargin)) / 1e3;
    const double overhead_us = f.host_clock ? std::clamp(host_overhead_us, 0.0, kMostOverheadBelievedUs) : 0;
    if (f.median_us + overhead_us >= floor_us) return;
    const std::string clock =
        f.host_clock ? fmt::format(" (the host clock, {:.1f} µs with its overhead)", f.median_us + overhead_us) : "";
    const std::string less =
        held_in_l2 > 0
            ? fmt::format(", less half of the {:.0f} written bytes that can still be in the L2 when it ends,",
                          held_in_l2)
            : "";
    f.result = verdict::impossible_time;
    f.message = fmt::format(
        "{:.1f} µs{} is faster than the memory system allows: the {:.0f} bytes this call must move{} take at least "
        "{:.1f} µs at the device's measured ceiling of {:.0f} GB/s (less a {:.0f} % margin), so its answers did not "
        "come from reading its inputs",
        f.median_us, clock, bytes, less, floor_us, peak_gbps, 100 * kFloorMargin);
}

// The runner binary's hash, once a process: it is tens of MB, and each submit keys reference points.
std::string runner_hash(const std::filesystem::path& runner_exe) {
    static std::mutex mutex;
    static std::map<std::filesystem::path, std::string> hashes;
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = hashes.find(runner_exe);
    if (found == hashes.end()) found = hashes.emplace(runner_exe, file_hash(runner_exe)).first;
    return found->second;
}

// The key under which a reference point's figures stay valid: device, its library, runner, problem,
// and what else it depends on (`more`: the torch version for the PyTorch one-liner). The device by
// its UUID, as the ceiling (bench/device_probe.hpp): each GPU times its own reference points.
std::string reference_key(const problem_spec& spec, const judge_context& context, const std::string& device_uuid,
                          const std::filesystem::path& library, const std::vector<std::string>& more = {}) {
    std::vector<std::string> parts{device_uuid, library.filename().string(), runner_hash(context.runner.runner_exe),
                                   content_hash({spec.yaml_text})};
    parts.insert(parts.end(), more.begin(), more.end());
    return content_hash(parts);
}

// The figures an earlier run kept under `key`, into `entry`; whether there were any.
bool take_kept(const history* results, const std::string& key, bench_entry& entry) {
    const auto kept = results ? results->baseline_figures(key) : std::nullopt;
    if (!kept) return false;
    entry.figures = nlohmann::json::parse(*kept).get<std::vector<bench_figures>>();
    entry.cached = true;
    return true;
}

// Keeps a reference point's figures under `key` when every timed run of it passed.
void keep_figures(history* results, const std::string& key, const bench_entry& entry) {
    if (results && !deciding_run(entry)) results->save_baseline_figures(key, json_text(nlohmann::json(entry.figures)));
}

// The runner for the PyTorch one-liner; none, said only with -v, when no Python has torch.
std::optional<runner_settings> torch_runner(const judge_context& context, const std::filesystem::path& source) {
    try {
        return runner_for(context.runner, source);
    } catch (const environment_error& missing) {
        spdlog::debug("no × torch column: {}", missing.what());
        return std::nullopt;
    }
}

// No × torch column, and the warning that says why: the one-liner itself failed.
std::optional<bench_entry> without_torch(const std::filesystem::path& source, std::string why) {
    while (!why.empty() && why.back() == '\n') why.pop_back();
    spdlog::warn("{}: the PyTorch one-liner failed, so there is no × torch column: {}", source.string(), why);
    return std::nullopt;
}

// Times the one-liner (loaded in a runner of its own) on the plan; why it cannot be a reference, if so.
std::optional<std::string> time_torch(const problem_spec& spec, const plan_source& plan, const runner_settings& runner,
                                      double peak_gbps, judge_context& context, bench_entry& entry) {
    return context.timings.measure("torch one-liner", [&]() -> std::optional<std::string> {
        runner_session session(spec, runner);
        if (auto failure = load_solution(session, entry.compile)) return failure;
        if (!entry.compile.ok) return entry.compile.diagnostics;
        entry.figures = time_loaded(session, spec, plan(), peak_gbps);
        if (const bench_figures* failed = deciding_run(entry))
            return fmt::format("timed run on '{}': {}: {}", failed->test, to_string(failed->result), failed->message);
        return std::nullopt;
    });
}

}  // namespace

std::optional<std::string> headline_test(const problem_spec& spec) {
    std::optional<std::string> name;
    for (const auto& test : spec.tests)
        if (test.kind == test_kind::benchmark) name = test.name;
    return name;
}

timed_plan plan_timed_runs(const problem_spec& spec, reference_outputs& references, const timed_settings& settings,
                           std::mt19937_64& secret, const std::vector<int>& only) {
    timed_plan plan;
    plan.job.settings = settings;
    plan.job.order_seed = secret();
    const std::vector<int> tests = only.empty() ? select_tests(spec, {test_kind::benchmark}) : only;
    const auto data_sets = choose_timed_data(spec, tests, settings.data_sets, references, secret);
    for (std::size_t t = 0; t < tests.size(); ++t) {
        plan.job.tests.push_back({tests[t], data_sets[t].data_sets});
        plan.expected.emplace(tests[t], data_sets[t].expected);
    }
    return plan;
}

time_job calibration_job(const problem_spec& spec, const timed_settings& settings, const std::vector<int>& only) {
    time_job job;
    job.settings = settings;
    job.settings.data_sets = 1;  // one data set, as good as any: what is measured is the harness's work
    job.settings.warmup = 2;
    job.settings.warmup_s = job.settings.later_warmup_s = 0;
    job.settings.min_samples = kReadingsToChooseClock;
    job.settings.max_samples = 2 * kReadingsToChooseClock;
    job.settings.min_time_s = 0;
    job.settings.budget_s = 0.25;
    job.settings.target_rse = 1;
    for (const int test : only.empty() ? select_tests(spec, {test_kind::benchmark}) : only)
        job.tests.push_back({test, {{own_data(spec.tests.at(static_cast<std::size_t>(test)))}}});
    return job;
}

bench_figures figures_of(const problem_spec& spec, const test_report& report, double peak_gbps, double l2_bytes) {
    bench_figures f;
    f.test = report.name;
    f.result = report.result;
    f.message = report.message;
    if (report.result != verdict::accepted || !report.timing) return f;
    const timing_summary& t = *report.timing;
    f.median_us = t.stats.median * 1e3;
    f.mean_us = t.stats.mean * 1e3;
    f.min_us = t.stats.min * 1e3;
    f.max_us = t.stats.max * 1e3;
    f.stddev_us = t.stats.stddev * 1e3;
    f.rse = t.stats.rse;
    f.samples = t.stats.count;
    f.event_median_us = t.event_median_ms * 1e3;
    f.host_median_us = t.host_median_ms * 1e3;
    f.solve_median_us = t.solve_median_ms * 1e3;
    f.host_clock = t.host_clock;
    f.blocking = t.blocking;
    f.unblocked_because = t.unblocked_because;
    f.solve_charge_us = t.solve_charge_ms * 1e3;
    f.cycle_us = report.cycle_median_ms * 1e3;
    const scalar_values& scalars = spec.tests.at(static_cast<std::size_t>(report.index)).scalars;
    const double bytes = evaluate(spec.bytes_expression, scalars);
    const double flops = evaluate(spec.flops_expression, scalars);
    if (f.median_us > 0) f.gbps = bytes / (f.median_us * 1e-6) / 1e9;
    if (f.median_us > 0) f.gflops = flops / (f.median_us * 1e-6) / 1e9;
    if (peak_gbps > 0) f.percent_of_peak = 100.0 * f.gbps / peak_gbps;
    refuse_below_floor(f, bytes, writes_the_l2_holds(spec, scalars, l2_bytes), peak_gbps, t.host_overhead_ms * 1e3);
    return f;
}

std::vector<bench_figures> time_loaded(runner_session& session, const problem_spec& spec, const timed_plan& plan,
                                       double peak_gbps) {
    std::vector<int> tests;
    for (const auto& test : plan.job.tests) tests.push_back(test.test);
    std::vector<test_report> reports = pending_reports(spec, tests);
    session.time(plan.job, plan.expected, reports);
    const double l2_bytes = session.device() ? static_cast<double>(session.device()->l2_bytes) : 0;
    std::vector<bench_figures> figures;
    for (const auto& report : reports) figures.push_back(figures_of(spec, report, peak_gbps, l2_bytes));
    return figures;
}

std::optional<bench_entry> baseline_entry(const problem_spec& spec, const plan_source& plan, judge_context& context,
                                          history* results, const device_message& device, double peak_gbps) {
    const auto source = find_baseline(context, spec.slug);
    if (!source) return std::nullopt;
    bench_entry entry;
    entry.source = *source;
    entry.baseline = true;
    entry.compile = compile_solution(spec, *source, context.compiler);
    if (!entry.compile.ok) return entry;
    const std::string key = reference_key(spec, context, device.uuid, entry.compile.library);
    if (take_kept(results, key, entry)) return entry;
    entry.figures = context.timings.measure("baseline", [&] {
        runner_session session(spec, context.runner);
        if (auto failure = session.load(entry.compile.library, "solve"))
            throw problem_error(fmt::format("{}: {}", source->string(), *failure));
        return time_loaded(session, spec, plan(), peak_gbps);
    });
    keep_figures(results, key, entry);
    return entry;
}

std::optional<std::filesystem::path> torch_source(const std::filesystem::path& home, const std::string& slug) {
    const std::filesystem::path source = home / "solutions" / slug / "pytorch.py";
    std::error_code error;
    if (!std::filesystem::is_regular_file(source, error)) return std::nullopt;
    return source;
}

std::optional<bench_entry> torch_entry(const problem_spec& spec, const plan_source& plan, judge_context& context,
                                       history* results, const std::string& device_uuid, double peak_gbps) {
    const auto source = torch_source(context.home, spec.slug);
    if (!source) return std::nullopt;
    const auto runner = torch_runner(context, *source);
    if (!runner) return std::nullopt;
    bench_entry entry;
    entry.source = *source;
    entry.torch = true;
    entry.compile = compile_solution(spec, *source, context.compiler);  // a copy into the cache
    if (!entry.compile.ok) return without_torch(*source, entry.compile.diagnostics);
    const std::string key =
        reference_key(spec, context, device_uuid, entry.compile.library, {"torch " + runner->python->install.torch});
    if (take_kept(results, key, entry)) return entry;
    if (auto failure = time_torch(spec, plan, *runner, peak_gbps, context, entry))
        return without_torch(*source, *failure);
    keep_figures(results, key, entry);
    return entry;
}

void wall_clock_check(const bench_entry& baseline, bench_entry& submission) {
    for (bench_figures& f : submission.figures) {
        const auto base = std::find_if(baseline.figures.begin(), baseline.figures.end(),
                                       [&](const bench_figures& b) { return b.test == f.test; });
        if (f.result != verdict::accepted || base == baseline.figures.end() || base->cycle_us <= 0 || f.cycle_us <= 0)
            continue;
        const double harness_us = std::max(0.0, base->cycle_us - base->median_us);
        const double unexplained_us = f.cycle_us - harness_us;
        // Generous: launch latency and solve's host time are in the cycle and not in a held-back
        // median, and two processes' harness work differs by noise that grows with it: on the H100,
        // honest solutions' cycles ran up to 36 % over the baseline's harness share (2862 µs
        // against 2102 µs for matrix_row_sum, with a cached baseline from another process).
        if (f.median_us >= 0.5 * unexplained_us - 50 - 0.5 * harness_us) continue;
        f.result = verdict::impossible_time;
        f.message = fmt::format(
            "the judge's clock saw {:.1f} µs per timed call, of which the harness's own work takes {:.1f} µs; a median "
            "of {:.1f} µs leaves most of the rest untimed (work before the start event, or outputs computed apart "
            "from the timed call)",
            f.cycle_us, harness_us, f.median_us);
    }
}

namespace {

// Each entry's `speedup`, size by size: the reference's median over the entry's.
void speedups_against(bench_report& report, const bench_entry& reference, double bench_figures::*speedup) {
    for (auto& entry : report.entries)
        for (bench_figures& f : entry.figures) {
            const auto same = std::find_if(reference.figures.begin(), reference.figures.end(),
                                           [&](const bench_figures& r) { return r.test == f.test; });
            if (same != reference.figures.end() && same->median_us > 0 && f.median_us > 0)
                f.*speedup = same->median_us / f.median_us;
        }
}

}  // namespace

void add_speedups(bench_report& report) {
    for (const bench_entry& entry : report.entries) {
        if (entry.baseline) speedups_against(report, entry, &bench_figures::speedup);
        if (entry.torch) speedups_against(report, entry, &bench_figures::speedup_torch);
    }
}

const bench_figures* deciding_run(const bench_entry& entry) {
    for (const auto& f : entry.figures)
        if (f.result != verdict::accepted) return &f;
    return nullptr;
}

void to_json(nlohmann::json& out, const bench_figures& f) {
    out = {{"test", f.test},
           {"verdict", to_string(f.result)},
           {"message", f.message},
           {"median_us", f.median_us},
           {"mean_us", f.mean_us},
           {"min_us", f.min_us},
           {"max_us", f.max_us},
           {"stddev_us", f.stddev_us},
           {"rse", f.rse},
           {"samples", f.samples},
           {"event_median_us", f.event_median_us},
           {"host_median_us", f.host_median_us},
           {"solve_median_us", f.solve_median_us},
           {"host_clock", f.host_clock},
           {"blocking", f.blocking},
           {"unblocked_because", f.unblocked_because},
           {"solve_charge_us", f.solve_charge_us},
           {"gbps", f.gbps},
           {"gflops", f.gflops},
           // None without a measured peak (the host backend), rather than 0 % of it.
           {"percent_of_peak", f.percent_of_peak > 0 ? nlohmann::json(f.percent_of_peak) : nlohmann::json()},
           {"speedup", f.speedup},
           {"speedup_torch", f.speedup_torch},
           {"cycle_us", f.cycle_us}};
}

void from_json(const nlohmann::json& in, bench_figures& f) {
    in.at("test").get_to(f.test);
    f.result = parse_verdict(in.at("verdict").get<std::string>());
    in.at("message").get_to(f.message);
    in.at("median_us").get_to(f.median_us);
    in.at("mean_us").get_to(f.mean_us);
    in.at("min_us").get_to(f.min_us);
    in.at("max_us").get_to(f.max_us);
    in.at("stddev_us").get_to(f.stddev_us);
    in.at("rse").get_to(f.rse);
    in.at("samples").get_to(f.samples);
    in.at("event_median_us").get_to(f.event_median_us);
    in.at("host_median_us").get_to(f.host_median_us);
    f.solve_median_us = in.value("solve_median_us", 0.0);  // kept before it was reported
    in.at("host_clock").get_to(f.host_clock);
    in.at("blocking").get_to(f.blocking);
    f.unblocked_because = in.value("unblocked_because", "");  // kept before it was reported
    f.solve_charge_us = in.value("solve_charge_us", 0.0);     // kept before solve's host time was charged
    in.at("gbps").get_to(f.gbps);
    f.gflops = in.value("gflops", 0.0);  // baseline figures kept before the column existed have none
    f.percent_of_peak = in.at("percent_of_peak").is_null() ? 0 : in.at("percent_of_peak").get<double>();
    in.at("speedup").get_to(f.speedup);
    f.speedup_torch = in.value("speedup_torch", 0.0);  // kept before the PyTorch one-liner was a reference
    f.cycle_us = in.value("cycle_us", 0.0);            // kept before the judge's clock was read: no check against them
}

}  // namespace gpujudge
