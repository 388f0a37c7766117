#pragma once
// How a judgement is shown: text for people (coloured on a terminal) or one JSON object. Both read
// the one decided verdict (judging/submission.hpp: decide).
#include "history/database.hpp"
#include "judging/submission.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace gpujudge {

struct style {
    bool color = false;
};

void print_submission(std::FILE* out, const problem_spec& spec, const std::filesystem::path& source,
                      const judgement& result, style look);

// What print_submission prints, without colour, as text: a grade's feedback for one file.
std::string submission_text(const problem_spec& spec, const std::filesystem::path& source, const judgement& result);

// The judgement as one object, for `--json` and serve alike: with `results`, the problem's
// personal best after a timed judgement.
nlohmann::json submission_json(const problem_spec& spec, const std::filesystem::path& source, const judgement& result,
                               const history* results = nullptr);

// The problem's personal best after a timed judgement (none when it was not timed).
std::optional<personal_best> best_after(const problem_spec& spec, const judgement& result, const history* results);

// "accepted" in green, the failures in red, skipped in yellow (when colour is on).
std::string styled_verdict(verdict v, style look);

}  // namespace gpujudge
