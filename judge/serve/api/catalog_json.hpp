#pragma once
// What the API tells about the catalog and the history: the problem list, one problem's view, and
// the attempts with their sources.
#include "history/database.hpp"
#include "problem_spec.hpp"
#include "serve/source_store.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace gpujudge {

// The catalog's folder for `slug`, found among the folder names (the client's text is never made
// a path); api_error 404 "unknown_problem" when there is none.
std::filesystem::path catalog_problem(const std::filesystem::path& home, const std::string& slug);

// [{slug, title, difficulty, personal_best (or null)}], in slug order; a problem whose files are
// refused is listed with its "error" ("path:line: message").
nlohmann::json problem_list_json(const std::filesystem::path& home, const history* results);

// One problem's view: what `show` prints, in parts (statement as Markdown, signature, constraints,
// examples), the starter, the test counts, the personal best, and the source to edit: the draft,
// else the last attempt's source, else the starter ("source_from" says which).
nlohmann::json problem_json(const problem_spec& spec, const history* results, const source_store& store);

// history --json's object, only `slug`'s attempts when given, each attempt with "source_text": the
// file's text while it still holds the version judged, else null.
nlohmann::json history_sources_json(const history& results, const std::optional<std::string>& slug);

}  // namespace gpujudge
