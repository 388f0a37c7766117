#pragma once
// GET /api/leaderboard: a class's leaderboards for the page's Leaderboard view, read from a grade's
// gradebook (read-only, at each request: a grade that is still running shows what it has judged).
// Ranked by grade/grade_reports.hpp's one ranking, as leaderboard.md is.
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gpujudge {

// `configured`: serve's --gradebook (a run folder or a gradebook file); empty: the latest grade run
// that `grade` noted (grade/gradebook.hpp). Answers {gradebook, source, rows, problems}, `source`
// "option" or "latest grade", `problems` as leaderboard_json. Throws api_error 404 "no_gradebook"
// when there is none to read, 503 "gradebook_unusable" when it cannot be read.
nlohmann::json leaderboard_reply(const std::filesystem::path& configured);

// Throws usage_error unless `configured` names a gradebook serve can read (checked at start-up).
void check_gradebook_option(const std::filesystem::path& configured);

}  // namespace gpujudge
