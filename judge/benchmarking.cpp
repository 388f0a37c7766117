#include "benchmarking.hpp"

#include "catalog.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

std::optional<std::filesystem::path> find_baseline(const judge_context& context, const std::string& slug) {
    for (const auto& solution : list_solutions(context.home, slug))
        if (solution.baseline) return solution.path;
    return std::nullopt;
}

bench_figures figures_of(const problem_spec& spec, const test_report& report, double peak_gbps) {
    bench_figures f;
    f.test = report.name;
    f.result = report.result;
    f.message = report.message;
    if (report.result != verdict::accepted || report.stats.is_null()) return f;
    const nlohmann::json& s = report.stats;
    f.median_us = s.value("median_ms", 0.0) * 1e3;
    f.mean_us = s.value("mean_ms", 0.0) * 1e3;
    f.min_us = s.value("min_ms", 0.0) * 1e3;
    f.max_us = s.value("max_ms", 0.0) * 1e3;
    f.stddev_us = s.value("stddev_ms", 0.0) * 1e3;
    f.rse = s.value("rse", 0.0);
    f.samples = s.value("count", 0);
    f.event_median_us = s.value("event_median_ms", 0.0) * 1e3;
    f.host_median_us = s.value("host_median_ms", 0.0) * 1e3;
    f.host_clock = report.host_clock;
    f.blocking = report.blocking;
    const double bytes = evaluate(spec.bytes_expression, spec.tests.at(static_cast<std::size_t>(report.index)).scalars);
    if (f.median_us > 0) f.gbps = bytes / (f.median_us * 1e-6) / 1e9;
    if (peak_gbps > 0) f.percent_of_peak = 100.0 * f.gbps / peak_gbps;
    return f;
}

}  // namespace

std::optional<std::string> headline_test(const problem_spec& spec) {
    std::optional<std::string> name;
    for (const auto& test : spec.tests)
        if (test.kind == test_kind::benchmark) name = test.name;
    return name;
}

bench_report bench_problem(const problem_spec& spec, const std::vector<std::filesystem::path>& sources,
                           judge_context& context, history& results, const bench_options& options) {
    bench_report report;
    report.problem = spec.slug;
    const judge_run& device = context.device();
    report.device = device.device;
    if (device.no_device) {
        report.no_device = device.no_device;
        return report;
    }
    const std::string uuid = device.device.value("uuid", "");
    const std::string device_name = device.device.value("name", "");
    if (auto cached = results.device_peak(uuid)) report.peak_gbps = *cached;

    std::vector<std::pair<std::filesystem::path, bool>> queue;
    const auto baseline = find_baseline(context, spec.slug);
    if (baseline) queue.emplace_back(*baseline, true);
    for (const auto& source : sources)
        if (!baseline || std::filesystem::weakly_canonical(source) != std::filesystem::weakly_canonical(*baseline))
            queue.emplace_back(source, false);

    const auto reference = build_reference(spec, context);
    const std::vector<int> tests = select_tests(spec, {test_kind::benchmark});
    for (const auto& [source, is_baseline] : queue) {
        bench_entry entry;
        entry.source = source;
        entry.baseline = is_baseline;
        entry.compile = compile_solution(spec, source, context.compiler);
        if (entry.compile.ok) {
            nlohmann::json timing = options.timing;
            timing["measure_peak"] = report.peak_gbps == 0;
            const judge_run run = run_tests(spec, entry.compile.library, reference, tests, context.runner,
                                            runner_mode::bench, timing);
            if (run.peak_gbps) {
                report.peak_gbps = *run.peak_gbps;
                results.save_device_peak(uuid, device_name, report.peak_gbps);
            }
            for (const auto& test : run.tests) entry.figures.push_back(figures_of(spec, test, report.peak_gbps));
        }
        report.entries.push_back(std::move(entry));
    }
    // Speedups against the baseline of the same run, then the history.
    const bench_entry* base = baseline && !report.entries.empty() && report.entries.front().baseline
                                  ? &report.entries.front() : nullptr;
    for (auto& entry : report.entries) {
        for (std::size_t t = 0; t < entry.figures.size(); ++t) {
            bench_figures& f = entry.figures[t];
            if (base && t < base->figures.size() && f.median_us > 0 && base->figures[t].median_us > 0)
                f.speedup = base->figures[t].median_us / f.median_us;
            if (f.result != verdict::accepted) continue;
            results.record({spec.slug, entry.source.string(), options.origin, entry.baseline, device_name, uuid, f.test,
                            f.median_us / 1e3, f.mean_us / 1e3, f.min_us / 1e3, f.samples, f.gbps, f.speedup});
        }
    }
    return report;
}

const bench_figures* first_failure(const bench_entry& entry) {
    for (const auto& f : entry.figures)
        if (f.result != verdict::accepted) return &f;
    return nullptr;
}

std::string bench_markdown(const bench_report& report) {
    std::string text = fmt::format("### {} on {} (measured peak {:.0f} GB/s)\n\n", report.problem,
                                   report.device.value("name", "?"), report.peak_gbps);
    text += "| solution | size | median µs | GB/s | % of peak | × baseline | samples | ±rse |\n";
    text += "|---|---|---:|---:|---:|---:|---:|---:|\n";
    bool any_host_clock = false, any_unblocked = false;
    for (const auto& entry : report.entries) {
        const std::string name = entry.source.filename().string() + (entry.baseline ? " (baseline)" : "");
        if (!entry.compile.ok) {
            text += fmt::format("| {} | | compile_error | | | | | |\n", name);
            continue;
        }
        for (const auto& f : entry.figures) {
            if (f.result != verdict::accepted) {
                text += fmt::format("| {} | {} | {} | | | | | |\n", name, f.test, to_string(f.result));
                continue;
            }
            text += fmt::format("| {} | {} | {:.1f}{}{} | {:.0f} | {:.1f} | {} | {} | {:.2f}% |\n", name, f.test,
                                f.median_us, f.host_clock ? " (host clock)" : "", f.blocking ? "" : " (synchronises)",
                                f.gbps, f.percent_of_peak,
                                f.speedup > 0 ? fmt::format("{:.2f}", f.speedup) : "", f.samples, 100 * f.rse);
            any_host_clock |= f.host_clock;
            any_unblocked |= !f.blocking;
        }
    }
    if (any_unblocked)
        text += "\n(synchronises): solve synchronised, took longer on the host than its kernels ran, or hid work "
                "from the events, so the time includes launch latency. The judge synchronises after solve: a "
                "cudaDeviceSynchronize() at its end is not needed.\n";
    if (any_host_clock)
        text += "\n(host clock): work ran outside the default stream's events, so the host clock timed it, from "
                "before the call to a device-wide synchronise.\n";
    return text;
}

nlohmann::json bench_json(const bench_report& report) {
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& entry : report.entries) {
        nlohmann::json figures = nlohmann::json::array();
        for (const auto& f : entry.figures)
            figures.push_back({{"test", f.test},           {"verdict", to_string(f.result)},
                               {"message", f.message},     {"median_us", f.median_us},
                               {"mean_us", f.mean_us},     {"min_us", f.min_us},
                               {"max_us", f.max_us},       {"stddev_us", f.stddev_us},
                               {"rse", f.rse},             {"samples", f.samples},
                               {"event_median_us", f.event_median_us},
                               {"host_median_us", f.host_median_us},
                               {"host_clock", f.host_clock},
                               {"blocking", f.blocking},
                               {"gbps", f.gbps},           {"percent_of_peak", f.percent_of_peak},
                               {"speedup", f.speedup}});
        entries.push_back({{"source", entry.source.string()},
                           {"baseline", entry.baseline},
                           {"compiled", entry.compile.ok},
                           {"figures", figures}});
    }
    nlohmann::json json = {{"problem", report.problem}, {"peak_gbps", report.peak_gbps}, {"entries", entries}};
    if (!report.device.is_null()) json["device"] = report.device;
    if (report.no_device) json["no_device"] = *report.no_device;
    return json;
}

}  // namespace gpujudge
