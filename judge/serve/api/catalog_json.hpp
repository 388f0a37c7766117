#pragma once
// What the API tells about the catalog and the history: the problem list, one problem's view, the
// source to edit in each language, and the attempts with their sources.
#include "history/database.hpp"
#include "serve/source_store.hpp"
#include "spec/problem_spec.hpp"

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

// The language a request names ("language" in its JSON object; a GET's ?language= is passed as one), one of
// solution_languages(); "cuda" when it names none, as every request did before the page had languages.
// api_error 400 for any other value.
std::string requested_language(const nlohmann::json& request);

// The source to edit in `language`: {language, languages (solution_languages()), starter (`init --lang`'s),
// source, source_from}: the draft in that language, else the newest attempt's source in it, else the
// starter ("source_from": "draft", "last attempt" or "starter").
nlohmann::json editing_json(const problem_spec& spec, const std::string& language, const history* results,
                            const source_store& store);

// One problem's view: what `show` prints, in parts (statement as Markdown, signature, constraints,
// examples), the test counts, the personal best, and editing_json's fields for the language the page
// opens it in: that of the draft saved last, else of the newest attempt, else CUDA.
nlohmann::json problem_json(const problem_spec& spec, const history* results, const source_store& store);

// history --json's object, only `slug`'s attempts when given, and the personal bests of `specs`; each
// attempt with "source_text": the file's text while it still holds the version judged, else null; and
// with it its "language" (language_of_source), else null.
nlohmann::json history_sources_json(const history& results, const std::optional<std::string>& slug,
                                    const std::vector<problem_spec>& specs);

}  // namespace gpujudge
