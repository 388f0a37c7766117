#pragma once
// What a grade writes from its gradebook: gradebook.csv and gradebook.json (a row per file),
// leaderboard.md (accepted submissions ranked per problem) and summary.md.
#include "grade/gradebook.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpujudge {

// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);

// A text field of a gradebook.csv row, never read as a formula: one that starts with = + - @ (a tab, a CR)
// gains a leading '.
std::string csv_text(const std::string& text);

// A student-controlled name made safe to print or to put in Markdown: control characters (newline, ESC) as
// \n, \t, \xNN; with markdown, '|' escaped and '<' as &lt; (no HTML in leaderboard.md or summary.md).
std::string printable_name(const std::string& text, bool markdown = false);

// The reason of a row whose problem cannot be loaded: "problem <slug> is invalid: <its error>".
std::string invalid_problem_reason(const std::string& problem, const std::string& error);

// A problem whose files cannot be loaded (a broken problem.yaml) or whose reference failed: its error,
// once, and how many submissions of it were left unjudged.
struct invalid_problem {
    std::string error;  // "path:line: message" for a problem.yaml
    int submissions = 0;
    int kept = 0;  // of them: judged before the problem broke, on the same bytes, their rows kept
};
// The invalid_problem rows' problems, by slug, each error as the rows' reasons give it.
std::map<std::string, invalid_problem> invalid_problems_of(const std::vector<grade_row>& rows);

std::string gradebook_csv(const std::vector<grade_row>& rows);
nlohmann::json gradebook_json(const std::vector<grade_row>& rows);

// One GPU model's timed accepted rows, fastest median first.
struct gpu_ranking {
    std::string gpu;
    std::vector<grade_row> rows;
};
// A problem's leaderboard: its timed accepted rows ranked by time within each GPU model (models by
// name), and, where there are several models, by % of the ceiling across them (rows without a
// ceiling left out; empty with one model).
struct problem_leaderboard {
    std::string problem;
    std::vector<gpu_ranking> by_gpu;
    std::vector<grade_row> across_models;
};
// The one ranking, per problem that has submissions (by name): the Markdown's and serve's.
std::vector<problem_leaderboard> rank_leaderboards(const std::vector<grade_row>& rows);

// The ranking as leaderboard.md shows it.
std::string leaderboard_markdown(const std::vector<grade_row>& rows);
// The ranking as serve's API sends it: [{problem, by_gpu: [{gpu, ranked}], across_models}], each
// ranked row as gradebook.json holds it, with its `rank`.
nlohmann::json leaderboard_json(const std::vector<grade_row>& rows);
// Per problem: accepted / wrong / failed, the median and best time; byte-identical sources; what
// could not be judged.
std::string summary_markdown(const std::vector<grade_row>& rows);

// Writes the four files into `run` (each replaced whole), and each row's feedback (grade/feedback.hpp).
void write_grade_reports(const std::filesystem::path& run, const std::vector<grade_row>& rows);

}  // namespace gpujudge
