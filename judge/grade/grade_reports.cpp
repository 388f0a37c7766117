#include "grade/grade_reports.hpp"

#include "base/counted.hpp"
#include "base/file_text.hpp"
#include "base/hex_text.hpp"
#include "base/json_text.hpp"
#include "base/printable_text.hpp"
#include "grade/feedback.hpp"
#include "history/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace gpujudge {

namespace {

std::string number(const std::optional<double>& value, int digits) {
    return value ? fmt::format("{:.{}f}", *value, digits) : "";
}

// Markdown table cells and list items: a '|' in a name would end the cell, a newline the row (a forged row or
// heading), and control characters (ESC) would reach the terminal summary.md is printed on.
std::string cell(const std::string& text) {
    return printable_name(text, true);
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

// "gpu1" where the row names its GPU's number, else nothing.
std::string gpu_number_text(const grade_row& row) {
    return row.gpu_index ? fmt::format("gpu{}", *row.gpu_index) : "";
}

// The model, and the GPU's number where the row has it: "NVIDIA H100 (gpu1)".
std::string gpu_text(const grade_row& row) {
    return row.gpu_index ? fmt::format("{} ({})", row.gpu, gpu_number_text(row)) : row.gpu;
}

std::string ranked_by_time(const gpu_ranking& ranking) {
    std::string text = fmt::format(
        "\n### On {}\n\n| # | student | median µs | GB/s | % of ceiling | × baseline | GPU |\n"
        "|---|---|---|---|---|---|---|\n",
        ranking.gpu.empty() ? "an unknown GPU" : ranking.gpu);
    const auto& rows = ranking.rows;
    for (std::size_t i = 0; i < rows.size(); ++i)
        text +=
            fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", i + 1, cell(rows[i].student),
                        number(rows[i].median_us, 1), number(rows[i].gbps, 1), number(rows[i].percent_of_ceiling, 1),
                        number(rows[i].speedup, 2), gpu_number_text(rows[i]));
    return text;
}

std::string ranked_by_ceiling(const std::vector<grade_row>& rows) {
    if (rows.empty()) return "";
    std::string text =
        "\n### Across GPU models, by % of ceiling\n\n| # | student | GPU | % of ceiling | median µs |\n"
        "|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
        text += fmt::format("| {} | {} | {} | {} | {} |\n", i + 1, cell(rows[i].student), cell(gpu_text(rows[i])),
                            number(rows[i].percent_of_ceiling, 1), number(rows[i].median_us, 1));
    return text;
}

// A row as gradebook.json holds it.
nlohmann::json row_json(const grade_row& r) {
    nlohmann::json row = {{"student", r.student},
                          {"problem", r.problem},
                          {"file", r.file},
                          {"status", r.status},
                          {"tests_passed", r.passed},
                          {"tests_total", r.total},
                          {"median_us", optional_number(r.median_us)},
                          {"gbps", optional_number(r.gbps)},
                          {"percent_of_ceiling", optional_number(r.percent_of_ceiling)},
                          {"x_baseline", optional_number(r.speedup)},
                          {"ceiling_gbps", optional_number(r.ceiling_gbps)},
                          {"source_hash", r.source_hash},
                          {"gpu", r.gpu},
                          {"gpu_index", optional_number(r.gpu_index)},
                          {"judged_at", r.judged_at},
                          {"wall_s", r.wall_s},
                          {"reason", r.reason}};
    // JSON strings are UTF-8: a name that is not reads with U+FFFD, two students alike. Its bytes too.
    if (first_non_utf8(r.student)) row["student_hex"] = hex_of(r.student);
    if (first_non_utf8(r.file)) row["file_hex"] = hex_of(r.file);
    return row;
}

// Ranked rows as the API sends them: each as gradebook.json holds it, with its rank.
nlohmann::json ranked_json(const std::vector<grade_row>& rows) {
    nlohmann::json ranked = nlohmann::json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        nlohmann::json row = row_json(rows[i]);
        row["rank"] = i + 1;
        ranked.push_back(std::move(row));
    }
    return ranked;
}

// Sources handed in by more than one student for the same problem.
std::string identical_sources(const std::vector<grade_row>& rows) {
    std::map<std::pair<std::string, std::string>, std::set<std::string>> students;
    for (const auto& row : rows)
        if (!row.source_hash.empty() && !status_group(row.status).empty())
            students[{row.problem, row.source_hash}].insert(row.student);
    std::string text;
    // A name per line: joined with commas, a student named "a,b" read as two.
    for (const auto& [key, names] : students) {
        if (names.size() < 2) continue;
        text += fmt::format("- {}:\n", cell(key.first));
        for (const auto& name : names) text += fmt::format("  - {}\n", cell(name));
    }
    return text.empty() ? "" : "\n## Byte-identical sources\n\n" + text;
}

// Problems that could not be loaded: each once, with its error and how many submissions wait for it.
std::string invalid_problems(const std::vector<grade_row>& rows) {
    std::string text;
    for (const auto& [problem, found] : invalid_problems_of(rows))
        text += fmt::format("- {}: {} not judged: {}\n", cell(problem),
                            counted(static_cast<std::size_t>(found.submissions), "submission"), cell(found.error));
    return text.empty() ? "" : "\n## Invalid problems\n\n" + text;
}

std::string not_judged(const std::vector<grade_row>& rows) {
    std::string text;
    for (const auto& row : rows)
        if (status_group(row.status).empty() && row.status != grade_status::invalid_problem)
            text += fmt::format("- {}: {} ({})\n", cell(row.file), row.status, cell(row.reason));
    return text.empty() ? "" : "\n## Not submissions\n\n" + text;
}

}  // namespace

std::string invalid_problem_reason(const std::string& problem, const std::string& error) {
    return fmt::format("problem {} is invalid: {}", problem, error);
}

std::map<std::string, invalid_problem> invalid_problems_of(const std::vector<grade_row>& rows) {
    std::map<std::string, invalid_problem> problems;
    for (const auto& row : rows)
        if (row.status == grade_status::invalid_problem) {
            auto& found = problems[row.problem];
            ++found.submissions;
            const std::string prefix = invalid_problem_reason(row.problem, "");
            found.error = row.reason.rfind(prefix, 0) == 0 ? row.reason.substr(prefix.size()) : row.reason;
        }
    return problems;
}

std::string printable_name(const std::string& text, bool markdown) {
    std::string out;
    // Bytes that are not UTF-8 as \xNN too: two names in Latin-1 (n\xe9e, n\xe8e) both read "n�e".
    for (const char c : printable_output(text)) {
        if (c == '\n' || c == '\t')
            out += c == '\n' ? "\\n" : "\\t";
        else if (markdown && c == '|')
            out += "\\|";
        else if (markdown && c == '<')
            out += "&lt;";
        else
            out += c;
    }
    return out;
}

std::string csv_text(const std::string& text) {
    // A spreadsheet reads a cell that starts with = + - @ (or a tab or CR before them) as a formula.
    if (!text.empty() && std::string("=+-@\t\r").find(text.front()) != std::string::npos) return "'" + text;
    return text;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string gradebook_csv(const std::vector<grade_row>& rows) {
    std::string text =
        "student,problem,file,status,tests_passed,tests_total,median_us,gbps,percent_of_ceiling,x_baseline,"
        "ceiling_gbps,source_hash,gpu,gpu_index,judged_at,wall_s,reason\r\n";
    for (const auto& r : rows) {
        const std::vector<std::string> fields{csv_text(r.student),
                                              csv_text(r.problem),
                                              csv_text(r.file),
                                              csv_text(r.status),
                                              std::to_string(r.passed),
                                              std::to_string(r.total),
                                              number(r.median_us, 3),
                                              number(r.gbps, 3),
                                              number(r.percent_of_ceiling, 2),
                                              number(r.speedup, 3),
                                              number(r.ceiling_gbps, 1),
                                              r.source_hash,
                                              csv_text(r.gpu),
                                              r.gpu_index ? std::to_string(*r.gpu_index) : "",
                                              r.judged_at,
                                              fmt::format("{:.2f}", r.wall_s),
                                              csv_text(r.reason)};
        std::vector<std::string> quoted;
        for (const auto& field : fields) quoted.push_back(csv_field(field));
        text += fmt::format("{}\r\n", fmt::join(quoted, ","));
    }
    return text;
}

nlohmann::json gradebook_json(const std::vector<grade_row>& rows) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : rows) all.push_back(row_json(r));
    return all;
}

// A ranking keeps each student's first row, their fastest: a .cu and a .py of one problem are one place.
void one_place_each(std::vector<grade_row>& ranked) {
    std::set<std::string> placed;
    ranked.erase(std::remove_if(ranked.begin(), ranked.end(),
                                [&](const grade_row& row) { return !placed.insert(row.student).second; }),
                 ranked.end());
}

std::vector<problem_leaderboard> rank_leaderboards(const std::vector<grade_row>& rows) {
    std::vector<problem_leaderboard> boards;
    for (const auto& [problem, entries] : by_problem(rows)) {
        problem_leaderboard board{problem, {}, {}};
        std::map<std::string, std::vector<grade_row>> by_gpu;
        for (const auto& row : entries)
            if (timed_accepted(row)) {
                by_gpu[row.gpu].push_back(row);
                if (row.percent_of_ceiling) board.across_models.push_back(row);
            }
        for (auto& [gpu, ranked] : by_gpu) {
            std::stable_sort(ranked.begin(), ranked.end(),
                             [](const grade_row& a, const grade_row& b) { return *a.median_us < *b.median_us; });
            one_place_each(ranked);
            board.by_gpu.push_back({gpu, std::move(ranked)});
        }
        if (board.by_gpu.size() > 1) {
            std::stable_sort(
                board.across_models.begin(), board.across_models.end(),
                [](const grade_row& a, const grade_row& b) { return *a.percent_of_ceiling > *b.percent_of_ceiling; });
            one_place_each(board.across_models);
        } else
            board.across_models.clear();
        boards.push_back(std::move(board));
    }
    return boards;
}

std::string leaderboard_markdown(const std::vector<grade_row>& rows) {
    std::string text = "# Leaderboard\n\nAccepted submissions, ranked by median time on each GPU model.\n";
    for (const auto& board : rank_leaderboards(rows)) {
        text += fmt::format("\n## {}\n", board.problem);
        if (board.by_gpu.empty()) text += "\nNo timed accepted submission.\n";
        for (const auto& ranking : board.by_gpu) text += ranked_by_time(ranking);
        text += ranked_by_ceiling(board.across_models);
    }
    return text;
}

nlohmann::json leaderboard_json(const std::vector<grade_row>& rows) {
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& board : rank_leaderboards(rows)) {
        nlohmann::json by_gpu = nlohmann::json::array();
        for (const auto& ranking : board.by_gpu)
            by_gpu.push_back({{"gpu", ranking.gpu}, {"ranked", ranked_json(ranking.rows)}});
        problems.push_back(
            {{"problem", board.problem}, {"by_gpu", by_gpu}, {"across_models", ranked_json(board.across_models)}});
    }
    return problems;
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
            best ? fmt::format("{:.1f} ({}, {})", *best->median_us, cell(best->student), cell(gpu_text(*best))) : "");
    }
    return text + identical_sources(rows) + invalid_problems(rows) + not_judged(rows);
}

void write_grade_reports(const std::filesystem::path& run, const std::vector<grade_row>& rows) {
    std::filesystem::create_directories(run);
    write_file_atomically(run / "gradebook.csv", gradebook_csv(rows));
    write_file_atomically(run / "gradebook.json", json_text(gradebook_json(rows), 2) + "\n");
    write_file_atomically(run / "leaderboard.md", leaderboard_markdown(rows));
    write_file_atomically(run / "summary.md", summary_markdown(rows));
    write_feedback(run, rows);
}

}  // namespace gpujudge
