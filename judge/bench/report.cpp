#include "bench/report.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::string bench_markdown(const bench_report& report) {
    std::string text = fmt::format("### {} on {} (measured peak {:.0f} GB/s)\n\n", report.problem,
                                   report.device ? report.device->name : "?", report.peak_gbps);
    text += "| solution | size | median µs | GB/s | GFLOP/s | % of peak | × baseline | samples | ±rse |\n";
    text += "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    bool any_host_clock = false, any_unblocked = false, any_cached = false;
    for (const auto& entry : report.entries) {
        const std::string name = entry.source.filename().string() +
                                 (entry.baseline ? (entry.cached ? " (baseline, kept)" : " (baseline)") : "");
        any_cached |= entry.cached;
        if (!entry.compile.ok) {
            text += fmt::format("| {} | | compile_error | | | | | | |\n", name);
            continue;
        }
        for (const auto& f : entry.figures) {
            if (f.result != verdict::accepted) {
                text += fmt::format("| {} | {} | {} | | | | | | |\n", name, f.test, to_string(f.result));
                continue;
            }
            text += fmt::format("| {} | {} | {:.1f}{}{} | {:.0f} | {} | {:.1f} | {} | {} | {:.2f}% |\n", name, f.test,
                                f.median_us, f.host_clock ? " (host clock)" : "", f.blocking ? "" : " (synchronises)",
                                f.gbps, f.gflops > 0 ? fmt::format("{:.1f}", f.gflops) : "", f.percent_of_peak,
                                f.speedup > 0 ? fmt::format("{:.2f}", f.speedup) : "", f.samples, 100 * f.rse);
            any_host_clock |= f.host_clock;
            any_unblocked |= !f.blocking;
        }
    }
    if (any_cached)
        text +=
            "\n(baseline, kept): the baseline's figures from an earlier run on this device, with the same "
            "baseline, judge and problem.\n";
    if (any_unblocked)
        text +=
            "\n(synchronises): solve synchronised, took longer on the host than its kernels ran, or hid work "
            "from the events, so the time includes launch latency. The judge synchronises after solve: a "
            "cudaDeviceSynchronize() at its end is not needed.\n";
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
                           {"cached", entry.cached},
                           {"compiled", entry.compile.ok},
                           {"figures", entry.figures}});
    nlohmann::json json = {{"problem", report.problem}, {"peak_gbps", report.peak_gbps}, {"entries", entries}};
    if (report.device) json["device"] = *report.device;
    if (report.no_device) json["no_device"] = *report.no_device;
    return json;
}

}  // namespace gpujudge
