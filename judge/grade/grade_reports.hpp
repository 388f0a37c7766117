#pragma once
// What a grade writes from its gradebook: gradebook.csv and gradebook.json (a row per file),
// leaderboard.md (accepted submissions ranked per problem) and summary.md.
#include "grade/gradebook.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);

std::string gradebook_csv(const std::vector<grade_row>& rows);
nlohmann::json gradebook_json(const std::vector<grade_row>& rows);
// Per problem: by time within each GPU model, then by % of the ceiling across models.
std::string leaderboard_markdown(const std::vector<grade_row>& rows);
// Per problem: accepted / wrong / failed, the median and best time; byte-identical sources; what
// could not be judged.
std::string summary_markdown(const std::vector<grade_row>& rows);

// Writes the four files into `run` (each replaced whole).
void write_grade_reports(const std::filesystem::path& run, const std::vector<grade_row>& rows);

}  // namespace gpujudge
