#include "profile/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace gpujudge {

namespace {

double or_zero(double value) {
    return std::isnan(value) ? 0 : value;
}

// µs that `bytes` take at `peak_gbps` (GB/s = 1e3 bytes per µs).
double us_at(double bytes, double peak_gbps) {
    return peak_gbps > 0 ? bytes / (peak_gbps * 1e3) : 0;
}

// Time the kernel's DRAM traffic leaves on the table: its duration beyond what its bytes take at the
// ceiling (its whole duration when there is no ceiling to compare with).
double above_traffic_us(const kernel_profile& k, double peak_gbps) {
    return std::max(0.0, k.duration_us - us_at(or_zero(k.dram_bytes()), peak_gbps));
}

// What idle SMs and a part-full last wave cost. A kernel that streams at the ceiling with half the
// SMs idle loses nothing by it: the cost is capped by the time above what its traffic takes.
double idle_us(const kernel_profile& k, double peak_gbps) {
    return std::min(k.duration_us * idle_fraction(k), above_traffic_us(k, peak_gbps));
}

// Time the kernel spends below the ceiling, its idle slots aside.
double below_us(const kernel_profile& k, double peak_gbps) {
    return above_traffic_us(k, peak_gbps) - idle_us(k, peak_gbps);
}

template <typename Measure>
const kernel_profile* largest(const std::vector<kernel_profile>& kernels, Measure measure) {
    const kernel_profile* best = nullptr;
    for (const auto& k : kernels)
        if (!best || measure(k) > measure(*best)) best = &k;
    return best;
}

std::string blocks_text(double blocks) {
    return std::isnan(blocks) ? "" : fmt::format("{:.0f}", blocks);
}

std::string extra_traffic(const std::vector<kernel_profile>& kernels, const roofline& line) {
    std::vector<const kernel_profile*> movers;
    for (const auto& k : kernels) movers.push_back(&k);
    std::stable_sort(movers.begin(), movers.end(), [](const kernel_profile* a, const kernel_profile* b) {
        return or_zero(a->dram_bytes()) > or_zero(b->dram_bytes());
    });
    std::string who;
    for (std::size_t i = 0; i < movers.size() && i < 3; ++i)
        who += fmt::format("{}{} {} (L2 hit rate {:.1f} %)", i ? ", " : "", movers[i]->short_name(),
                           format_bytes(or_zero(movers[i]->dram_bytes())), or_zero(movers[i]->l2_hit_pct));
    return fmt::format(
        "DRAM traffic is {:.2f}x metrics.bytes ({} moved where {} must be), {:.1f} µs at the ceiling: read each "
        "input byte once, in one pass, and write each output once. By kernel: {}.",
        line.dram_bytes / line.bytes, format_bytes(line.dram_bytes), format_bytes(line.bytes), line.extra_us, who);
}

std::string outside_kernels(const roofline& line) {
    const double percent = 100 * line.outside_us / line.time_us;
    if (line.kernels > 1)
        return fmt::format(
            "{} kernels leave {:.1f} µs ({:.0f} % of the call) between and around them, where none of yours runs: "
            "fuse them (the last block to finish can combine the partial results) or launch fewer.",
            line.kernels, line.outside_us, percent);
    return fmt::format(
        "{:.1f} µs ({:.0f} % of the call) pass outside the kernel: solve does other work around it (cudaMalloc, "
        "cudaMemset, cudaMemcpy, a synchronise); allocate nothing per call and zero outputs inside the kernel.",
        line.outside_us, percent);
}

std::string plural(double count, const char* noun) {
    return fmt::format("{:.0f} {}{}", count, noun, count == 1 ? "" : "s");
}

// `follows_others`: a small kernel after others, the last step of a multi-kernel reduction.
std::string idle_sms(const kernel_profile& k, double peak_gbps, bool follows_others) {
    const double slots = or_zero(k.sm_count) * or_zero(blocks_per_sm(k));
    const std::string per_sm = blocks_text(blocks_per_sm(k));
    const std::string idles = fmt::format(
        "{} launches {} where {:.0f} SMs hold {} each ({:.2g} waves): {:.0f} % of the GPU idles for its "
        "{:.1f} µs",
        k.short_name(), plural(k.grid_size, "block"), k.sm_count, per_sm, k.waves_per_sm, 100 * idle_fraction(k),
        k.duration_us);
    if (k.waves_per_sm < 1 && follows_others)
        return idles +
               "; do its work at the end of the kernel before it instead (the last block to finish, found with an "
               "atomic counter, combines the partial results).";
    if (k.waves_per_sm < 1)
        return fmt::format("{}; launch at least {:.0f} blocks, with a grid-stride loop for the work per thread.", idles,
                           slots);
    return fmt::format(
        "{}'s last wave of {:.0f} is {:.0f} % full ({:.2f} waves of {:.0f} blocks on {:.0f} SMs): about {:.1f} µs "
        "of idle SMs; a grid-stride loop over {:.0f} blocks (one full wave) has no tail.",
        k.short_name(), std::ceil(k.waves_per_sm), 100 * (k.waves_per_sm - std::floor(k.waves_per_sm)), k.waves_per_sm,
        slots, k.sm_count, idle_us(k, peak_gbps), slots);
}

std::string below_ceiling(const kernel_profile& k, double peak_gbps) {
    const std::string head =
        fmt::format("{} reaches {:.0f} % of the ceiling", k.short_name(), percent_of_ceiling(k, peak_gbps));
    const std::string limiter = occupancy_limiter(k);
    const bool resource_bound = k.theoretical_occupancy_pct < 50 &&
                                (limiter.rfind("registers", 0) == 0 || limiter.rfind("shared memory", 0) == 0);
    if (resource_bound)
        return fmt::format(
            "{} with a theoretical occupancy of {:.0f} %, limited by {} to {} blocks per SM: fewer warps in flight "
            "hide less memory latency; cap registers with __launch_bounds__, or use less shared memory per block.",
            head, k.theoretical_occupancy_pct, limiter, blocks_text(blocks_per_sm(k)));
    if (k.stalls.empty()) return head + ".";
    const stall_reason& top = k.stalls.front();
    const double share = stall_share(k, top);
    if (top.name == "barrier")
        return fmt::format(
            "{} and its warps wait most at __syncthreads (barrier, {:.0f} % of stalls): reduce within each warp "
            "with __shfl_down_sync and keep one barrier per block.",
            head, share);
    if (top.name == "long_scoreboard")
        return fmt::format(
            "{} and its warps wait most for global memory (long_scoreboard, {:.0f} % of stalls): keep more bytes in "
            "flight per thread, with 16-byte loads (float4, int4) and several independent loads before the first "
            "use.",
            head, share);
    return fmt::format("{}; its warps stall most on {} ({:.0f} % of stalls): {}.", head, top.name, share,
                       stall_meaning(top.name));
}

}  // namespace

std::string format_bytes(double bytes) {
    if (std::isnan(bytes)) return "n/a";  // a metric ncu did not collect
    if (bytes >= 1e9) return fmt::format("{:.2f} GB", bytes / 1e9);
    if (bytes >= 1e6) return fmt::format("{:.1f} MB", bytes / 1e6);
    if (bytes >= 1e3) return fmt::format("{:.1f} KB", bytes / 1e3);
    return fmt::format("{:.0f} B", bytes);
}

double dram_gbps(const kernel_profile& k) {
    return k.duration_us > 0 ? or_zero(k.dram_bytes()) / (k.duration_us * 1e3) : 0;
}

double percent_of_ceiling(const kernel_profile& k, double peak_gbps) {
    return peak_gbps > 0 ? 100 * dram_gbps(k) / peak_gbps : 0;
}

double idle_fraction(const kernel_profile& k) {
    if (!(k.waves_per_sm > 0)) return 0;
    const double waves = std::ceil(k.waves_per_sm);
    return (waves - k.waves_per_sm) / waves;
}

double blocks_per_sm(const kernel_profile& k) {
    if (k.block_limits.empty()) return std::nan("");
    double fewest = k.block_limits.begin()->second;
    for (const auto& [resource, blocks] : k.block_limits) fewest = std::min(fewest, blocks);
    return fewest;
}

std::string occupancy_limiter(const kernel_profile& k) {
    if (!(k.theoretical_occupancy_pct < 100) || k.block_limits.empty()) return "";
    const double fewest = blocks_per_sm(k);
    std::vector<std::string> names;
    for (const char* resource : {"registers", "shared_mem", "warps", "blocks", "barriers"}) {
        const auto found = k.block_limits.find(resource);
        if (found == k.block_limits.end() || found->second != fewest) continue;
        const std::string name = resource;
        if (name == "registers")
            names.push_back(fmt::format("registers ({:.0f} per thread)", k.registers_per_thread));
        else if (name == "shared_mem")
            names.push_back(fmt::format("shared memory ({} per block)", format_bytes(k.shared_bytes_per_block)));
        else if (name == "warps")
            names.push_back(fmt::format("the block size ({:.0f} threads)", k.block_size));
        else if (name == "blocks")
            names.push_back("the SM's limit on resident blocks (small blocks)");
        else
            names.push_back("barriers");
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) text += (i ? " and " : "") + names[i];
    return text;
}

std::string stall_meaning(const std::string& reason) {
    static const std::map<std::string, std::string> meanings = {
        {"long_scoreboard", "waiting for data from global or local memory (a load that has not returned)"},
        {"barrier", "waiting at __syncthreads() for the other warps of its block"},
        {"short_scoreboard", "waiting for a shared-memory access or a special math function (exp, sqrt) to return"},
        {"wait", "waiting a fixed number of cycles for the result of a previous arithmetic instruction"},
        {"mio_throttle", "the queue for shared-memory and special instructions is full"},
        {"lg_throttle", "the queue for global and local memory instructions is full: many small loads or stores"},
        {"math_pipe_throttle", "the arithmetic unit it needs is busy with other warps' instructions"},
        {"not_selected", "ready, but the scheduler issued another warp (enough warps are ready: not a problem)"},
        {"branch_resolving", "waiting for a branch target to be computed, or for divergent threads to rejoin"},
        {"dispatch_stall", "the dispatcher could not issue the chosen instruction (a pipeline conflict)"},
        {"drain", "done, waiting for its last memory writes to drain before it exits"},
        {"imc_miss", "waiting for a constant-cache miss (kernel parameters or __constant__ data)"},
        {"membar", "waiting at a memory fence (__threadfence) for earlier writes to become visible"},
        {"misc", "a rare hardware reason that ncu groups as miscellaneous"},
        {"no_instruction", "waiting for instructions to be fetched (an instruction-cache miss, or after a jump)"},
        {"sleeping", "asleep (__nanosleep) or waiting for the other threads of its warp (__syncwarp)"},
        {"tex_throttle", "the queue to the texture unit is full"},
        {"gmma", "waiting for a warpgroup matrix multiply (wgmma) to finish"},
    };
    const auto found = meanings.find(reason);
    return found != meanings.end() ? found->second : fmt::format("stalled for what ncu calls '{}'", reason);
}

double stall_share(const kernel_profile& k, const stall_reason& reason) {
    double total = 0;
    for (const auto& s : k.stalls) total += s.ratio;
    return total > 0 ? 100 * reason.ratio / total : 0;
}

roofline make_roofline(const std::vector<kernel_profile>& kernels, double bytes, double time_us, double peak_gbps) {
    roofline line;
    line.bytes = bytes;
    line.peak_gbps = peak_gbps;
    line.ideal_us = us_at(bytes, peak_gbps);
    line.time_us = time_us;
    line.kernels = static_cast<int>(kernels.size());
    for (const auto& k : kernels) {
        line.kernel_us += k.duration_us;
        line.dram_bytes += or_zero(k.dram_bytes());
        line.idle_us += idle_us(k, peak_gbps);
    }
    line.extra_bytes = std::max(0.0, line.dram_bytes - bytes);
    line.extra_us = us_at(line.extra_bytes, peak_gbps);
    line.outside_us = std::max(0.0, time_us - line.kernel_us);
    // ncu's durations and the unprofiled median are two measurements: what is left never goes below 0.
    if (peak_gbps > 0) line.below_us = std::max(0.0, line.gap_us() - line.extra_us - line.outside_us - line.idle_us);
    return line;
}

std::vector<suggestion> suggest(const std::vector<kernel_profile>& kernels, const roofline& line) {
    std::vector<suggestion> found;
    if (kernels.empty() || line.time_us <= 0) return found;
    const double worth_us = std::max(0.5, 0.05 * line.time_us);
    if (line.peak_gbps > 0 && line.bytes > 0 && line.dram_bytes >= 1.1 * line.bytes && line.extra_us >= worth_us)
        found.push_back({extra_traffic(kernels, line), line.extra_us});
    if (line.outside_us >= worth_us) found.push_back({outside_kernels(line), line.outside_us});
    const auto idle = [&](const kernel_profile& k) { return idle_us(k, line.peak_gbps); };
    const kernel_profile* idlest = largest(kernels, idle);
    if (idle(*idlest) >= worth_us && blocks_per_sm(*idlest) > 0) {
        const bool follows_others = idlest != &kernels.front() && idlest->grid_size * 4 <= idlest->sm_count;
        found.push_back({idle_sms(*idlest, line.peak_gbps, follows_others), idle(*idlest)});
    }
    if (line.peak_gbps > 0) {
        const kernel_profile* slowest =
            largest(kernels, [&](const kernel_profile& k) { return below_us(k, line.peak_gbps); });
        const double at_stake = below_us(*slowest, line.peak_gbps);
        if (at_stake >= worth_us && percent_of_ceiling(*slowest, line.peak_gbps) < 80)
            found.push_back({below_ceiling(*slowest, line.peak_gbps), at_stake});
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const suggestion& a, const suggestion& b) { return a.at_stake_us > b.at_stake_us; });
    if (found.size() > 3) found.resize(3);
    return found;
}

}  // namespace gpujudge
