#include "profile/kernels.hpp"

#include <csv.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>

namespace gpujudge {

namespace {

using table = std::vector<std::vector<std::string>>;

// Every record of a CSV text, as libcsv splits them (quoted fields may hold commas).
table read_csv(const std::string& text) {
    struct sink {
        table rows;
        std::vector<std::string> row;
    } out;
    csv_parser parser;
    if (csv_init(&parser, 0) != 0) throw std::runtime_error("cannot start the CSV parser");
    std::unique_ptr<csv_parser, void (*)(csv_parser*)> owned(&parser, csv_free);
    const auto field = [](void* data, std::size_t size, void* context) {
        auto& row = static_cast<sink*>(context)->row;
        row.push_back(size ? std::string(static_cast<const char*>(data), size) : std::string());
    };
    const auto record = [](int, void* context) {
        auto* s = static_cast<sink*>(context);
        s->rows.push_back(std::move(s->row));
        s->row.clear();
    };
    if (csv_parse(&parser, text.data(), text.size(), field, record, &out) != text.size() ||
        csv_fini(&parser, field, record, &out) != 0)
        throw std::runtime_error(fmt::format("ncu's CSV does not parse: {}", csv_strerror(csv_error(&parser))));
    return out.rows;
}

// How many base units (bytes, microseconds, or the unit itself) one `unit` is.
double unit_scale(const std::string& unit) {
    const std::string base = unit.substr(0, unit.find('/'));  // "Kbyte/block": per block, in Kbyte
    static const std::map<std::string, double> scales = {
        {"byte", 1},       {"Kbyte", 1e3},  {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12},
        {"nsecond", 1e-3}, {"ns", 1e-3},    {"usecond", 1}, {"us", 1},      {"msecond", 1e3},
        {"ms", 1e3},       {"second", 1e6}, {"s", 1e6}};
    const auto found = scales.find(base);
    return found == scales.end() ? 1 : found->second;
}

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// One kernel's row, read by column name.
class row_reader {
public:
    row_reader(const std::vector<std::string>& names, const std::vector<std::string>& units,
               const std::vector<std::string>& row)
        : names_(names), units_(units), row_(row) {}

    const std::string* text(const std::string& name) const {
        const auto at = std::find(names_.begin(), names_.end(), name);
        if (at == names_.end()) return nullptr;
        const auto i = static_cast<std::size_t>(at - names_.begin());
        return i < row_.size() ? &row_[i] : nullptr;
    }
    std::string required_text(const std::string& name) const {
        const std::string* value = text(name);
        if (!value) throw std::runtime_error(fmt::format("ncu's raw page has no column '{}'", name));
        return *value;
    }
    double number(const std::string& name) const {
        const auto at = std::find(names_.begin(), names_.end(), name);
        if (at == names_.end()) return kMissing;
        const auto i = static_cast<std::size_t>(at - names_.begin());
        if (i >= row_.size()) return kMissing;
        return ncu_value(row_[i], i < units_.size() ? units_[i] : "");
    }
    double required_number(const std::string& name) const {
        required_text(name);
        return number(name);
    }

private:
    const std::vector<std::string>& names_;
    const std::vector<std::string>& units_;
    const std::vector<std::string>& row_;
};

const char* const kStallPrefix = "smsp__average_warps_issue_stalled_";
const char* const kStallSuffix = "_per_issue_active.ratio";

std::vector<stall_reason> stalls_of(const std::vector<std::string>& names, const row_reader& row) {
    const std::string prefix = kStallPrefix, suffix = kStallSuffix;
    std::vector<stall_reason> stalls;
    for (const auto& name : names) {
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string reason = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        const double ratio = row.number(name);
        if (reason != "selected" && !std::isnan(ratio)) stalls.push_back({reason, ratio});
    }
    std::stable_sort(stalls.begin(), stalls.end(),
                     [](const stall_reason& a, const stall_reason& b) { return a.ratio > b.ratio; });
    return stalls;
}

double sum_present(double a, double b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    return a + b;
}

kernel_profile kernel_of(const std::vector<std::string>& names, const row_reader& row) {
    kernel_profile k;
    k.id = static_cast<int>(row.required_number("ID"));
    k.name = row.required_text("Kernel Name");
    k.grid = row.text("Grid Size") ? *row.text("Grid Size") : "";
    k.block = row.text("Block Size") ? *row.text("Block Size") : "";
    k.duration_us = row.required_number("gpu__time_duration.sum");
    k.grid_size = row.number("launch__grid_size");
    k.block_size = row.number("launch__block_size");
    k.registers_per_thread = row.number("launch__registers_per_thread");
    k.shared_bytes_per_block = sum_present(row.number("launch__shared_mem_per_block_static"),
                                           row.number("launch__shared_mem_per_block_dynamic"));
    k.dram_read_bytes = row.number("dram__bytes_read.sum");
    k.dram_write_bytes = row.number("dram__bytes_write.sum");
    k.l1_hit_pct = row.number("l1tex__t_sector_hit_rate.pct");
    k.l2_hit_pct = row.number("lts__t_sector_hit_rate.pct");
    k.achieved_occupancy_pct = row.number("sm__warps_active.avg.pct_of_peak_sustained_active");
    k.theoretical_occupancy_pct = row.number("sm__maximum_warps_per_active_cycle_pct");
    for (const char* limit : {"registers", "shared_mem", "warps", "blocks", "barriers"}) {
        const double blocks = row.number(std::string("launch__occupancy_limit_") + limit);
        if (!std::isnan(blocks)) k.block_limits[limit] = blocks;
    }
    k.waves_per_sm = row.number("launch__waves_per_multiprocessor");
    k.sm_count = row.number("launch__sm_count");
    k.stalls = stalls_of(names, row);
    return k;
}

}  // namespace

double ncu_value(const std::string& text, const std::string& unit) {
    std::string digits;
    for (const char c : text)
        if (c != ',') digits += c;  // thousands separators: "390,625"
    if (digits.empty()) return kMissing;
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (*end != '\0') return kMissing;  // "n/a", "no data", "(256, 1, 1)"
    return value * unit_scale(unit);
}

double kernel_profile::dram_bytes() const {
    return sum_present(dram_read_bytes, dram_write_bytes);
}

std::string kernel_profile::short_name() const {
    std::string text = name;
    if (!text.empty() && text.back() == ')') {  // drop the parameter list, matching its parentheses
        int depth = 0;
        for (std::size_t i = text.size(); i-- > 0;) {
            depth += text[i] == ')' ? 1 : text[i] == '(' ? -1 : 0;
            if (depth == 0) {
                text.resize(i);
                break;
            }
        }
    }
    int angle = 0;  // a return type ends at the last space outside template arguments
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        angle += text[i] == '<' ? 1 : text[i] == '>' ? -1 : 0;
        if (text[i] == ' ' && angle == 0) start = i + 1;
    }
    return text.empty() ? name : text.substr(start);
}

std::vector<kernel_profile> parse_ncu_raw_csv(const std::string& text) {
    const table rows = read_csv(text);
    // ncu may print notes before the table: it starts at the header row.
    const auto header = std::find_if(rows.begin(), rows.end(),
                                     [](const std::vector<std::string>& r) { return !r.empty() && r[0] == "ID"; });
    if (header == rows.end()) throw std::runtime_error("ncu printed no raw page (no header row starting with \"ID\")");
    const std::vector<std::string>& names = *header;
    std::vector<std::string> units;
    std::vector<kernel_profile> kernels;
    for (auto it = header + 1; it != rows.end(); ++it) {
        if (it->size() < 2) continue;
        if (it->at(0).empty()) {  // the units row: no ID
            units = *it;
            continue;
        }
        kernels.push_back(kernel_of(names, row_reader(names, units, *it)));
    }
    return kernels;
}

}  // namespace gpujudge
