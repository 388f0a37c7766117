#pragma once
// What Nsight Compute measured of each kernel of a profiled call, read from its report's raw page
// (`ncu --import r.ncu-rep --csv --page raw`): one row per kernel, a second header row of units.
// Values are in bytes and microseconds whatever units ncu printed (--print-units base or auto:
// Kbyte, Mbyte, nsecond, us...), thousands separators dropped. A metric ncu did not collect is NaN.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

struct stall_reason {
    std::string name;  // ncu's, e.g. "long_scoreboard"
    double ratio = 0;  // warps stalled for it per issue-active cycle (ncu's ..._per_issue_active.ratio)
};

struct kernel_profile {
    int id = 0;
    std::string name;                      // demangled, with its parameter list
    std::string grid, block;               // "(390625, 1, 1)"
    double duration_us = 0;                // gpu__time_duration.sum
    double grid_size = 0, block_size = 0;  // blocks, threads per block
    double registers_per_thread = 0;
    double shared_bytes_per_block = 0;  // static and dynamic
    double dram_read_bytes = 0, dram_write_bytes = 0;
    double l1_hit_pct = 0, l2_hit_pct = 0;
    double achieved_occupancy_pct = 0, theoretical_occupancy_pct = 0;
    // Blocks per SM each resource allows: registers, shared_mem, warps, blocks, barriers.
    std::map<std::string, double> block_limits;
    double waves_per_sm = 0;
    double sm_count = 0;
    std::vector<stall_reason> stalls;  // every reason but "selected" (issuing), largest first

    double dram_bytes() const;  // read and written, of those ncu collected (NaN: neither)
    // The name up to its parameter list, without a leading return type: "reduce<256>".
    std::string short_name() const;
};

// Parses the raw page; throws std::runtime_error naming what is missing when it is no such page.
std::vector<kernel_profile> parse_ncu_raw_csv(const std::string& text);

// "1,234.5" in `unit` ("Mbyte", "us", "Kbyte/block", "%"...) in base units (bytes, µs for times).
// NaN for "n/a", "no data" and other text.
double ncu_value(const std::string& text, const std::string& unit);

}  // namespace gpujudge
