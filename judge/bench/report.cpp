#include "bench/report.hpp"

#include "compile/error_reason.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace gpujudge {

namespace {

std::string row(const std::vector<std::string>& cells) {
    return fmt::format("| {} |\n", fmt::join(cells, " | "));
}

std::string rule(const std::vector<std::string>& cells) {
    return fmt::format("|{}|\n", fmt::join(cells, "|"));
}

std::string entry_name(const bench_entry& entry) {
    const std::string kept = entry.cached ? ", kept" : "";
    const std::string role = entry.baseline ? " (baseline" + kept + ")" : entry.torch ? " (torch" + kept + ")" : "";
    return entry.source.filename().string() + role;
}

constexpr std::size_t kTorchColumn = 7;  // "× torch", beside "× baseline"

// A row's cells, less × torch's where the table has no such column.
std::vector<std::string> shown(std::vector<std::string> cells, bool torch) {
    if (!torch) cells.erase(cells.begin() + kTorchColumn);
    return cells;
}

// A line of why a run was not timed: a verdict's message can run to a table of wrong elements.
std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

std::string speedup_text(double speedup) {
    return speedup > 0 ? fmt::format("{:.2f}", speedup) : "";
}

}  // namespace

std::string bench_markdown(const bench_report& report) {
    // × torch where the report has the PyTorch one-liner to compare with.
    const bool torch =
        std::any_of(report.entries.begin(), report.entries.end(), [](const bench_entry& e) { return e.torch; });
    const std::vector<std::string> header{"solution",  "size",       "median µs", "GB/s",    "GFLOP/s",
                                          "% of peak", "× baseline", "× torch",   "samples", "±rse"};
    const std::vector<std::string> alignment{
        "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"};
    const auto cells = [&](std::vector<std::string> all) { return row(shown(std::move(all), torch)); };
    // No peak measured (the host backend): no figure, rather than 0 GB/s and 0 % of it.
    const bool peak = report.peak_gbps > 0;
    std::string text =
        fmt::format("### {} on {} ({})\n\n", report.problem, report.device ? report.device->name : "?",
                    peak ? fmt::format("measured peak {:.0f} GB/s", report.peak_gbps) : "no peak measured");
    text += cells(header) + rule(shown(alignment, torch));
    bool any_host_clock = false, baseline_kept = false, torch_kept = false;
    std::string unblocked;  // a line per run timed unblocked: which, and why
    std::string charged;    // a line per held run charged for solve's host time: which, and how much
    std::string untimed;    // a line per entry or run that has no time: why
    for (const auto& entry : report.entries) {
        const std::string name = entry_name(entry);
        baseline_kept |= entry.baseline && entry.cached;
        torch_kept |= entry.torch && entry.cached;
        if (!entry.compile.ok) {
            text += cells({name, "", "compile_error", "", "", "", "", "", "", ""});
            untimed += fmt::format("  {}: compile_error: {}\n", name, compile_error_reason(entry.compile.diagnostics));
            continue;
        }
        for (const auto& f : entry.figures) {
            if (f.result != verdict::accepted) {
                text += cells({name, f.test, to_string(f.result), "", "", "", "", "", "", ""});
                untimed +=
                    fmt::format("  {} at {}: {}: {}\n", name, f.test, to_string(f.result), first_line(f.message));
                continue;
            }
            text +=
                cells({name, f.test,
                       fmt::format("{:.1f}{}{}{}", f.median_us, f.host_clock ? " (host clock)" : "",
                                   f.blocking ? "" : " (unblocked)", f.solve_charge_us > 0 ? " (host charged)" : ""),
                       fmt::format("{:.0f}", f.gbps), f.gflops > 0 ? fmt::format("{:.1f}", f.gflops) : "",
                       peak ? fmt::format("{:.1f}", f.percent_of_peak) : "", speedup_text(f.speedup),
                       speedup_text(f.speedup_torch), std::to_string(f.samples), fmt::format("{:.2f}%", 100 * f.rse)});
            any_host_clock |= f.host_clock;
            if (!f.blocking)
                unblocked += fmt::format(
                    "  {} at {}: {}\n", name, f.test,
                    f.unblocked_because.empty() ? "not recorded (kept from an earlier run)" : f.unblocked_because);
            if (f.solve_charge_us > 0)
                charged += fmt::format("  {} at {}: {:.1f} us of solve's {:.1f} us on the host\n", name, f.test,
                                       f.solve_charge_us, f.solve_median_us);
        }
    }
    if (!untimed.empty()) text += "\nNot timed, and why:\n" + untimed;
    if (baseline_kept)
        text +=
            "\n(baseline, kept): the baseline's figures from an earlier run on this device, with the same "
            "baseline, judge and problem.\n";
    if (torch_kept)
        text +=
            "\n(torch, kept): the PyTorch one-liner's figures from an earlier run on this device, with the same "
            "one-liner, torch version, judge and problem.\n";
    if (!unblocked.empty())
        text +=
            "\n(unblocked): calls were not held back until queued, so the time includes launch latency. "
            "Why, per run (a solve that waits on the device needs no cudaDeviceSynchronize() at its end: the "
            "judge synchronises after it):\n" +
            unblocked;
    if (!charged.empty())
        text +=
            "\n(host charged): solve spent longer on the host than its kernels and one launch, time in which the "
            "copy engines and the CPU can work while its kernels wait. The excess is in the time; the median "
            "call's, per run:\n" +
            charged;
    if (any_host_clock)
        text +=
            "\n(host clock): work ran outside the default stream's events, so the host clock timed it, from "
            "before the call to a device-wide synchronise.\n";
    return text;
}

nlohmann::json bench_json(const bench_report& report) {
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& entry : report.entries)
        entries.push_back({{"source", entry.source.string()},
                           {"baseline", entry.baseline},
                           {"torch", entry.torch},
                           {"cached", entry.cached},
                           {"compiled", entry.compile.ok},
                           {"compile_error", entry.compile.ok ? "" : compile_error_reason(entry.compile.diagnostics)},
                           {"figures", entry.figures}});
    nlohmann::json json = {{"problem", report.problem}, {"peak_gbps", report.peak_gbps}, {"entries", entries}};
    if (report.device) json["device"] = *report.device;
    if (report.no_device) json["no_device"] = *report.no_device;
    return json;
}

}  // namespace gpujudge
