#include "profile/report.hpp"

#include "base/exit_codes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace gpujudge {

namespace {

std::string or_na(double value, const char* format) {
    return std::isnan(value) ? "n/a" : fmt::format(format, value);
}

std::string launch_line(const kernel_profile& k) {
    return fmt::format("grid {} x block {}, {} registers per thread, {} shared memory per block", k.grid, k.block,
                       or_na(k.registers_per_thread, "{:.0f}"),
                       std::isnan(k.shared_bytes_per_block) ? "n/a" : format_bytes(k.shared_bytes_per_block));
}

std::string dram_line(const kernel_profile& k, double peak_gbps) {
    std::string text = fmt::format("{} read, {} written: {:.0f} GB/s", format_bytes(k.dram_read_bytes),
                                   format_bytes(k.dram_write_bytes), dram_gbps(k));
    if (peak_gbps > 0) text += fmt::format(", {:.1f} % of the measured ceiling", percent_of_ceiling(k, peak_gbps));
    return text;
}

std::string occupancy_line(const kernel_profile& k) {
    std::string text = fmt::format("{} % achieved of {} % theoretical", or_na(k.achieved_occupancy_pct, "{:.1f}"),
                                   or_na(k.theoretical_occupancy_pct, "{:.1f}"));
    const std::string limiter = occupancy_limiter(k);
    if (!limiter.empty()) text += ", limited by " + limiter;
    const double blocks = blocks_per_sm(k);
    if (!std::isnan(blocks)) text += fmt::format("; {:.0f} blocks per SM", blocks);
    if (!std::isnan(k.waves_per_sm)) text += fmt::format(", {:.2f} waves", k.waves_per_sm);
    return text;
}

void print_kernel(std::FILE* out, const kernel_profile& k, std::size_t number, std::size_t total, double peak_gbps) {
    fmt::print(out, "\nkernel {} of {}: {}  {:.1f} µs\n", number, total, k.short_name(), k.duration_us);
    fmt::print(out, "  launch     {}\n", launch_line(k));
    fmt::print(out, "  DRAM       {}\n", dram_line(k, peak_gbps));
    fmt::print(out, "  caches     L1 hit {} %, L2 hit {} %\n", or_na(k.l1_hit_pct, "{:.1f}"),
               or_na(k.l2_hit_pct, "{:.1f}"));
    fmt::print(out, "  occupancy  {}\n", occupancy_line(k));
    for (std::size_t i = 0; i < k.stalls.size() && i < 3; ++i)
        fmt::print(out, "  {:<10} {} {:.0f} %: {}\n", i == 0 ? "stalls" : "", k.stalls[i].name,
                   stall_share(k, k.stalls[i]), stall_meaning(k.stalls[i].name));
}

std::string headline(const profile_result& r) {
    std::string text = fmt::format("{:.1f} µs unprofiled median", r.time_us);
    if (r.time_us > 0) text += fmt::format(" ({:.0f} GB/s", r.bytes / (r.time_us * 1e3));
    if (r.time_us > 0 && r.peak_gbps > 0)
        text += fmt::format(", {:.1f} % of the measured ceiling of {:.0f} GB/s", r.line.percent_of_peak(), r.peak_gbps);
    return text + (r.time_us > 0 ? ")" : "");
}

nlohmann::json kernel_json(const kernel_profile& k, double peak_gbps) {
    nlohmann::json stalls = nlohmann::json::array();
    for (const auto& s : k.stalls)
        stalls.push_back({{"reason", s.name},
                          {"ratio", s.ratio},
                          {"share_pct", stall_share(k, s)},
                          {"meaning", stall_meaning(s.name)}});
    const auto number = [](double value) {
        return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
    };
    return {{"id", k.id},
            {"name", k.name},
            {"short_name", k.short_name()},
            {"duration_us", k.duration_us},
            {"grid", k.grid},
            {"block", k.block},
            {"grid_size", number(k.grid_size)},
            {"block_size", number(k.block_size)},
            {"registers_per_thread", number(k.registers_per_thread)},
            {"shared_bytes_per_block", number(k.shared_bytes_per_block)},
            {"dram_read_bytes", number(k.dram_read_bytes)},
            {"dram_write_bytes", number(k.dram_write_bytes)},
            {"dram_gbps", dram_gbps(k)},
            {"percent_of_peak", percent_of_ceiling(k, peak_gbps)},
            {"l1_hit_pct", number(k.l1_hit_pct)},
            {"l2_hit_pct", number(k.l2_hit_pct)},
            {"achieved_occupancy_pct", number(k.achieved_occupancy_pct)},
            {"theoretical_occupancy_pct", number(k.theoretical_occupancy_pct)},
            {"occupancy_limiter", occupancy_limiter(k)},
            {"blocks_per_sm", number(blocks_per_sm(k))},
            {"block_limits", k.block_limits},
            {"waves_per_sm", number(k.waves_per_sm)},
            {"idle_fraction", idle_fraction(k)},
            {"stalls", stalls}};
}

nlohmann::json roofline_json(const roofline& line) {
    return {{"bytes", line.bytes},
            {"peak_gbps", line.peak_gbps},
            {"ideal_us", line.ideal_us},
            {"time_us", line.time_us},
            {"gap_us", line.gap_us()},
            {"kernels", line.kernels},
            {"kernel_us", line.kernel_us},
            {"dram_bytes", line.dram_bytes},
            {"extra_dram_bytes", line.extra_bytes},
            {"extra_dram_us", line.extra_us},
            {"outside_kernels_us", line.outside_us},
            {"idle_sm_us", line.idle_us},
            {"below_ceiling_us", line.below_us},
            {"percent_of_peak", line.percent_of_peak()}};
}

// The longest kernel: the one a comparison shows.
const kernel_profile* longest(const profile_result& r) {
    const kernel_profile* best = nullptr;
    for (const auto& k : r.kernels)
        if (!best || k.duration_us > best->duration_us) best = &k;
    return best;
}

// A label, then one cell per profile, each cut to its column (at a whole UTF-8 character).
std::string table_line(const std::string& label, const std::vector<std::string>& cells) {
    constexpr std::size_t kLabel = 24, kColumn = 34;
    std::string line = fmt::format("{:<{}}", label, kLabel);
    for (std::string text : cells) {
        if (text.size() > kColumn - 2) {
            std::size_t cut = kColumn - 5;
            while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
            text = text.substr(0, cut) + "...";
        }
        line += fmt::format("{:<{}}", text, kColumn);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    return line;
}

using cell_of = std::function<std::string(const profile_result&)>;

// A cell from the profile's longest kernel ("-" without kernels).
cell_of of_longest(std::function<std::string(const kernel_profile&, const profile_result&)> show) {
    return [show](const profile_result& r) {
        const kernel_profile* k = longest(r);
        return k ? show(*k, r) : std::string("-");
    };
}

// What --compare shows of each profile, row by row: the call, then its longest kernel.
std::vector<std::pair<std::string, cell_of>> comparison_rows() {
    const auto us = [](double value) { return fmt::format("{:.1f} µs", value); };
    return {
        {"verdict", [](const profile_result& r) { return std::string(to_string(r.overall)); }},
        {"time (unprofiled)", [us](const profile_result& r) { return us(r.time_us); }},
        {"% of the ceiling",
         [](const profile_result& r) {
             return r.peak_gbps > 0 ? fmt::format("{:.1f} %", r.line.percent_of_peak()) : std::string("n/a");
         }},
        {"kernels", [](const profile_result& r) { return std::to_string(r.kernels.size()); }},
        {"kernel time (ncu)", [us](const profile_result& r) { return us(r.line.kernel_us); }},
        {"outside the kernels", [us](const profile_result& r) { return us(r.line.outside_us); }},
        {"DRAM (x metrics.bytes)",
         [](const profile_result& r) {
             return fmt::format("{} ({:.2f}x)", format_bytes(r.line.dram_bytes),
                                r.bytes > 0 ? r.line.dram_bytes / r.bytes : 0);
         }},
        {"idle SMs and tails", [us](const profile_result& r) { return us(r.line.idle_us); }},
        {"below the ceiling",
         [us](const profile_result& r) { return r.peak_gbps > 0 ? us(r.line.below_us) : std::string("n/a"); }},
        {"longest kernel", of_longest([us](const kernel_profile& k, const profile_result&) {
             return k.short_name() + " " + us(k.duration_us);
         })},
        {"  DRAM throughput", of_longest([](const kernel_profile& k, const profile_result& r) {
             return r.peak_gbps > 0 ? fmt::format("{:.1f} % of the ceiling", percent_of_ceiling(k, r.peak_gbps))
                                    : fmt::format("{:.0f} GB/s", dram_gbps(k));
         })},
        {"  occupancy", of_longest([](const kernel_profile& k, const profile_result&) {
             return fmt::format("{} of {} %", or_na(k.achieved_occupancy_pct, "{:.1f}"),
                                or_na(k.theoretical_occupancy_pct, "{:.0f}"));
         })},
        {"  top stall", of_longest([](const kernel_profile& k, const profile_result&) {
             return k.stalls.empty()
                        ? std::string("n/a")
                        : fmt::format("{} {:.0f} %", k.stalls.front().name, stall_share(k, k.stalls.front()));
         })},
    };
}

}  // namespace

std::string describe_roofline(const roofline& line, bool capped) {
    std::string text;
    if (line.peak_gbps > 0)
        text = fmt::format(
            "{} (metrics.bytes) take {:.1f} µs at the measured ceiling of {:.0f} GB/s; the call takes {:.1f} µs "
            "({:.1f} %). Of the {:.1f} µs gap: extra DRAM traffic {} ({:.1f} µs), outside the kernels {:.1f} µs, idle "
            "SMs and tails {:.1f} µs, kernels below the ceiling {:.1f} µs.",
            format_bytes(line.bytes), line.ideal_us, line.peak_gbps, line.time_us, line.percent_of_peak(),
            line.gap_us(), format_bytes(line.extra_bytes), line.extra_us, line.outside_us, line.idle_us, line.below_us);
    else
        text = fmt::format(
            "no measured ceiling for this device: the call takes {:.1f} µs, its kernels {:.1f} µs, outside them "
            "{:.1f} µs, idle SMs and tails {:.1f} µs; DRAM traffic {} for {} of metrics.bytes.",
            line.time_us, line.kernel_us, line.outside_us, line.idle_us, format_bytes(line.dram_bytes),
            format_bytes(line.bytes));
    if (capped)
        text += fmt::format(" ncu profiled the first {} kernels only: the others' time counts as outside the kernels.",
                            kMaxProfiledKernels);
    return text;
}

void print_profile(std::FILE* out, const problem_spec& spec, const profiled_source& profile, style look) {
    const profile_result& r = profile.result;
    if (!r.profiled()) {
        print_submission(out, spec, profile.source, r.judged, look);
        if (r.judged.overall == verdict::accepted)  // the unprofiled run passed; the call under ncu did not
            fmt::print(out, "profile: {}: {}\n", styled_verdict(r.overall, look), r.reason);
        return;
    }
    const test_spec& test = spec.tests.at(static_cast<std::size_t>(r.test));
    fmt::print(out, "problem  {} ({})\n", spec.title, spec.slug);
    fmt::print(out, "source   {}\n", profile.source.string());
    if (r.judged.device) fmt::print(out, "device   {} ({})\n", r.judged.device->name, r.judged.device->arch);
    fmt::print(out, "test     {}: {}\n", test.name, headline(r));
    for (std::size_t i = 0; i < r.kernels.size(); ++i)
        print_kernel(out, r.kernels[i], i + 1, r.kernels.size(), r.peak_gbps);
    if (r.kernels.empty()) fmt::print(out, "\nncu profiled no kernel: solve launched none during the call\n");
    fmt::print(out, "\nroofline   {}\n", describe_roofline(r.line, r.capped()));
    fmt::print(out, "\nsuggestions{}\n", r.suggestions.empty() ? ": none, nothing stands out" : "");
    for (std::size_t i = 0; i < r.suggestions.size(); ++i) fmt::print(out, "  {}. {}\n", i + 1, r.suggestions[i].text);
    if (!r.report.empty())
        fmt::print(out, "\nreport     {} (open it in Nsight Compute's GUI: ncu-ui)\n", r.report.string());
}

nlohmann::json profile_json(const problem_spec& spec, const profiled_source& profile) {
    const profile_result& r = profile.result;
    nlohmann::json json = {{"problem", spec.slug},
                           {"source", profile.source.string()},
                           {"test", spec.tests.at(static_cast<std::size_t>(r.test)).name},
                           {"verdict", to_string(r.overall)},
                           {"exit_code", exit_code_for(r.overall)},
                           {"reason", r.reason},
                           {"judgement", submission_json(spec, profile.source, r.judged)}};
    if (!r.profiled()) return json;
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : r.kernels) kernels.push_back(kernel_json(k, r.peak_gbps));
    nlohmann::json suggestions = nlohmann::json::array();
    for (const auto& s : r.suggestions) suggestions.push_back({{"text", s.text}, {"at_stake_us", s.at_stake_us}});
    json["time_us"] = r.time_us;
    json["peak_gbps"] = r.peak_gbps;
    json["bytes"] = r.bytes;
    json["ncu_command"] = r.ncu_command;
    json["report"] = r.report.string();
    json["kernels"] = kernels;
    json["kernels_capped"] = r.capped();
    json["roofline"] = roofline_json(r.line);
    json["suggestions"] = suggestions;
    return json;
}

void print_comparison(std::FILE* out, const problem_spec& spec, const std::vector<profiled_source>& profiles,
                      style look) {
    fmt::print(out, "problem  {} ({}), test {}\n\n", spec.title, spec.slug,
               spec.tests.at(static_cast<std::size_t>(profiles.front().result.test)).name);
    std::vector<std::string> names;
    for (const auto& p : profiles) names.push_back(p.source.filename().string());
    fmt::print(out, "{}\n", table_line("", names));
    for (const auto& [label, show] : comparison_rows()) {
        std::vector<std::string> cells;
        for (const auto& p : profiles)
            cells.push_back(p.result.profiled() ? show(p.result) : to_string(p.result.overall));
        fmt::print(out, "{}\n", table_line(label, cells));
    }
    for (const auto& p : profiles) {
        const profile_result& r = p.result;
        fmt::print(out, "\n{}: ", p.source.string());
        if (!r.profiled()) {
            fmt::print(out, "{}: {}\n", styled_verdict(r.overall, look), r.reason);
            continue;
        }
        fmt::print(out, "{}\n", r.suggestions.empty() ? "no suggestion, nothing stands out" : "suggestions");
        for (std::size_t i = 0; i < r.suggestions.size(); ++i)
            fmt::print(out, "  {}. {}\n", i + 1, r.suggestions[i].text);
        if (!r.report.empty()) fmt::print(out, "  report: {}\n", r.report.string());
    }
}

nlohmann::json comparison_json(const problem_spec& spec, const std::vector<profiled_source>& profiles) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& p : profiles) all.push_back(profile_json(spec, p));
    return {{"problem", spec.slug}, {"profiles", all}};
}

}  // namespace gpujudge
