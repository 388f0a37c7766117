#pragma once
// What ncu's numbers say about a call: per kernel, its DRAM throughput against the device's
// measured ceiling, what limits its occupancy, its idle SMs and its main stall reasons in plain
// words; for the call, one roofline line (the bytes the problem must move at the ceiling against
// the unprofiled time, and where the gap goes); then at most three suggestions, each set off by a
// number that stands out and quoting it. None when nothing does.
#include "profile/kernels.hpp"

#include <string>
#include <vector>

namespace gpujudge {

// The call against the roofline. Times in µs, bytes in bytes.
struct roofline {
    double bytes = 0;      // metrics.bytes: what the problem must move
    double peak_gbps = 0;  // the device's measured ceiling; 0 when unknown
    double ideal_us = 0;   // `bytes` at the ceiling
    double time_us = 0;    // the unprofiled median of the call
    int kernels = 0;
    double kernel_us = 0;                  // the kernels' durations under ncu, summed
    double dram_bytes = 0;                 // read and written by every kernel
    double extra_bytes = 0, extra_us = 0;  // DRAM traffic beyond `bytes`, and its time at the ceiling
    double outside_us = 0;                 // time_us - kernel_us: launch gaps, other work in solve
    double idle_us = 0;                    // idle SMs and part-full last waves (from waves per SM)
    double below_us = 0;                   // what is left: kernels streaming below the ceiling (0: no ceiling)

    double gap_us() const { return time_us - ideal_us; }
    double percent_of_peak() const { return time_us > 0 ? 100 * ideal_us / time_us : 0; }
};

struct suggestion {
    std::string text;
    double at_stake_us = 0;  // the time the number that set it off stands for
};

roofline make_roofline(const std::vector<kernel_profile>& kernels, double bytes, double time_us, double peak_gbps);

// At most three, largest time at stake first; only those worth 5 % of the call (and 0.5 µs).
std::vector<suggestion> suggest(const std::vector<kernel_profile>& kernels, const roofline& line);

double dram_gbps(const kernel_profile& k);
// The kernel's DRAM throughput as % of the ceiling; 0 when either is unknown.
double percent_of_ceiling(const kernel_profile& k, double peak_gbps);
// The share of the GPU's block slots left empty over the kernel's waves: 1 - waves / ceil(waves).
double idle_fraction(const kernel_profile& k);
// The fewest blocks per SM any resource allows (NaN when ncu gave no limits).
double blocks_per_sm(const kernel_profile& k);
// What keeps occupancy below 100 %: "registers (64 per thread)", "the block size (96 threads)"...;
// empty when the theoretical occupancy is full or unknown.
std::string occupancy_limiter(const kernel_profile& k);

// A stall reason in one plain sentence: long_scoreboard is "waiting for data from global or
// local memory (a load that has not returned)".
std::string stall_meaning(const std::string& reason);
// The reason's share of all stalls of the kernel, in %.
double stall_share(const kernel_profile& k, const stall_reason& reason);

// "400.1 MB", "2.5 KB", "12 B": decimal units, as GB/s are; "n/a" for NaN.
std::string format_bytes(double bytes);

}  // namespace gpujudge
