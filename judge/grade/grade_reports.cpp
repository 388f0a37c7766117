#include "grade/grade_reports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace gpujudge {

namespace {

std::string number(const std::optional<double>& value, int digits) {
    return value ? fmt::format("{:.{}f}", *value, digits) : "";
}

// Markdown table cells: a '|' in a name would end the cell.
std::string cell(const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

bool timed_accepted(const grade_row& row) {
    return row.status == "accepted" && row.median_us;
}

std::map<std::string, std::vector<grade_row>> by_problem(const std::vector<grade_row>& rows) {
    std::map<std::string, std::vector<grade_row>> problems;
    for (const auto& row : rows)
        if (!status_group(row.status).empty()) problems[row.problem].push_back(row);
    return problems;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
    const auto temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary);
        out << text;
        if (!out) throw std::runtime_error(fmt::format("{}: cannot write", temporary));
    }
    std::filesystem::rename(temporary, path);  // readers never see half a file
}

std::string ranked_by_time(const std::string& gpu, std::vector<grade_row> rows) {
    std::sort(rows.begin(), rows.end(),
              [](const grade_row& a, const grade_row& b) { return *a.median_us < *b.median_us; });
    std::string text = fmt::format(
        "\n### On {}\n\n| # | student | median µs | GB/s | % of ceiling | × baseline |\n"
        "|---|---|---|---|---|---|\n",
        gpu.empty() ? "an unknown GPU" : gpu);
    for (std::size_t i = 0; i < rows.size(); ++i)
        text +=
            fmt::format("| {} | {} | {} | {} | {} | {} |\n", i + 1, cell(rows[i].student), number(rows[i].median_us, 1),
                        number(rows[i].gbps, 1), number(rows[i].percent_of_ceiling, 1), number(rows[i].speedup, 2));
    return text;
}

std::string ranked_by_ceiling(std::vector<grade_row> rows) {
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const grade_row& r) { return !r.percent_of_ceiling; }),
               rows.end());
    if (rows.empty()) return "";
    std::sort(rows.begin(), rows.end(),
              [](const grade_row& a, const grade_row& b) { return *a.percent_of_ceiling > *b.percent_of_ceiling; });
    std::string text =
        "\n### Across GPU models, by % of ceiling\n\n| # | student | GPU | % of ceiling | median µs |\n"
        "|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
        text += fmt::format("| {} | {} | {} | {} | {} |\n", i + 1, cell(rows[i].student), cell(rows[i].gpu),
                            number(rows[i].percent_of_ceiling, 1), number(rows[i].median_us, 1));
    return text;
}

// Sources handed in by more than one student for the same problem.
std::string identical_sources(const std::vector<grade_row>& rows) {
    std::map<std::pair<std::string, std::string>, std::set<std::string>> students;
    for (const auto& row : rows)
        if (!row.source_hash.empty() && !status_group(row.status).empty())
            students[{row.problem, row.source_hash}].insert(row.student);
    std::string text;
    for (const auto& [key, names] : students)
        if (names.size() > 1)
            text += fmt::format("- {}: {}\n", key.first, cell(fmt::format("{}", fmt::join(names, ", "))));
    return text.empty() ? "" : "\n## Byte-identical sources\n\n" + text;
}

std::string not_judged(const std::vector<grade_row>& rows) {
    std::string text;
    for (const auto& row : rows)
        if (status_group(row.status).empty()) text += fmt::format("- {}: {} ({})\n", row.file, row.status, row.reason);
    return text.empty() ? "" : "\n## Not submissions\n\n" + text;
}

}  // namespace

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string gradebook_csv(const std::vector<grade_row>& rows) {
    std::string text =
        "student,problem,file,status,tests_passed,tests_total,median_us,gbps,percent_of_ceiling,x_baseline,"
        "ceiling_gbps,source_hash,gpu,judged_at,wall_s,reason\r\n";
    for (const auto& r : rows) {
        const std::vector<std::string> fields{r.student,
                                              r.problem,
                                              r.file,
                                              r.status,
                                              std::to_string(r.passed),
                                              std::to_string(r.total),
                                              number(r.median_us, 3),
                                              number(r.gbps, 3),
                                              number(r.percent_of_ceiling, 2),
                                              number(r.speedup, 3),
                                              number(r.ceiling_gbps, 1),
                                              r.source_hash,
                                              r.gpu,
                                              r.judged_at,
                                              fmt::format("{:.2f}", r.wall_s),
                                              r.reason};
        std::vector<std::string> quoted;
        for (const auto& field : fields) quoted.push_back(csv_field(field));
        text += fmt::format("{}\r\n", fmt::join(quoted, ","));
    }
    return text;
}

nlohmann::json gradebook_json(const std::vector<grade_row>& rows) {
    nlohmann::json all = nlohmann::json::array();
    const auto maybe = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    for (const auto& r : rows)
        all.push_back({{"student", r.student},
                       {"problem", r.problem},
                       {"file", r.file},
                       {"status", r.status},
                       {"tests_passed", r.passed},
                       {"tests_total", r.total},
                       {"median_us", maybe(r.median_us)},
                       {"gbps", maybe(r.gbps)},
                       {"percent_of_ceiling", maybe(r.percent_of_ceiling)},
                       {"x_baseline", maybe(r.speedup)},
                       {"ceiling_gbps", maybe(r.ceiling_gbps)},
                       {"source_hash", r.source_hash},
                       {"gpu", r.gpu},
                       {"judged_at", r.judged_at},
                       {"wall_s", r.wall_s},
                       {"reason", r.reason}});
    return all;
}

std::string leaderboard_markdown(const std::vector<grade_row>& rows) {
    std::string text = "# Leaderboard\n\nAccepted submissions, ranked by median time on each GPU model.\n";
    for (const auto& [problem, entries] : by_problem(rows)) {
        std::map<std::string, std::vector<grade_row>> by_gpu;
        std::vector<grade_row> accepted;
        for (const auto& row : entries)
            if (timed_accepted(row)) {
                by_gpu[row.gpu].push_back(row);
                accepted.push_back(row);
            }
        text += fmt::format("\n## {}\n", problem);
        if (accepted.empty()) text += "\nNo timed accepted submission.\n";
        for (const auto& [gpu, ranked] : by_gpu) text += ranked_by_time(gpu, ranked);
        if (by_gpu.size() > 1) text += ranked_by_ceiling(accepted);
    }
    return text;
}

std::string summary_markdown(const std::vector<grade_row>& rows) {
    std::string text =
        "# Summary\n\n| problem | submissions | accepted | wrong | failed | median µs | best µs |\n"
        "|---|---|---|---|---|---|---|\n";
    for (const auto& [problem, entries] : by_problem(rows)) {
        std::map<std::string, int> counts;
        std::vector<double> times;
        const grade_row* best = nullptr;
        for (const auto& row : entries) {
            ++counts[status_group(row.status)];
            if (!timed_accepted(row)) continue;
            times.push_back(*row.median_us);
            if (!best || *row.median_us < *best->median_us) best = &row;
        }
        text += fmt::format(
            "| {} | {} | {} | {} | {} | {} | {} |\n", cell(problem), entries.size(), counts["accepted"],
            counts["wrong"], counts["failed"], times.empty() ? "" : fmt::format("{:.1f}", median(times)),
            best ? fmt::format("{:.1f} ({}, {})", *best->median_us, cell(best->student), cell(best->gpu)) : "");
    }
    return text + identical_sources(rows) + not_judged(rows);
}

void write_grade_reports(const std::filesystem::path& run, const std::vector<grade_row>& rows) {
    std::filesystem::create_directories(run);
    write_file(run / "gradebook.csv", gradebook_csv(rows));
    write_file(run / "gradebook.json", gradebook_json(rows).dump(2) + "\n");
    write_file(run / "leaderboard.md", leaderboard_markdown(rows));
    write_file(run / "summary.md", summary_markdown(rows));
}

}  // namespace gpujudge
