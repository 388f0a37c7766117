#include "serve/api/catalog_json.hpp"

#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "catalog/problem_view.hpp"
#include "catalog/starter.hpp"
#include "history/json.hpp"
#include "judging/submission.hpp"
#include "serve/api/api_error.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// A source the history may show: a learner's file, never a large one.
constexpr std::uintmax_t kSourceLimit = 1 << 20;

nlohmann::json best_json(const problem_spec& spec, const history* results) {
    const auto test = headline_test(spec);
    if (!results || !test) return nullptr;
    const auto best = results->best(spec.slug, problem_version(spec), *test);
    return best ? personal_best_json(*best) : nlohmann::json(nullptr);
}

nlohmann::json examples_json(const problem_spec& spec) {
    nlohmann::json examples = nlohmann::json::array();
    for (const auto& test : spec.tests)
        if (test.kind == test_kind::example)
            examples.push_back({{"name", test.name}, {"text", example_text(spec, test)}});
    return examples;
}

nlohmann::json test_counts(const problem_spec& spec) {
    nlohmann::json counts = {{"example", 0}, {"functional", 0}, {"benchmark", 0}};
    for (const auto& test : spec.tests) counts[to_string(test.kind)] = counts[to_string(test.kind)].get<int>() + 1;
    return counts;
}

// The newest attempt's source still on disk in `language` (any language when empty), with its language.
std::optional<std::pair<std::string, std::string>> last_attempt(const problem_spec& spec, const history* results,
                                                                const std::string& language) {
    if (!results) return std::nullopt;
    for (const auto& tried : results->attempts(spec.slug)) {
        auto text = attempt_source(tried.source, tried.source_hash, kSourceLimit);
        if (!text) continue;
        const std::string written_in = language_of_source(tried.source);
        if (language.empty() || written_in == language) return std::make_pair(std::move(*text), written_in);
    }
    return std::nullopt;
}

std::string opening_language(const problem_spec& spec, const history* results, const source_store& store) {
    if (auto drafted = store.last_draft_language(spec.slug)) return *drafted;
    if (auto tried = last_attempt(spec, results, "")) return tried->second;
    return "cuda";
}

}  // namespace

std::filesystem::path catalog_problem(const std::filesystem::path& home, const std::string& slug) {
    for (const auto& dir : list_problems(home))
        if (dir.filename() == slug) return dir;
    throw api_error(404, "unknown_problem", fmt::format("unknown problem '{}'", slug));
}

nlohmann::json problem_list_json(const std::filesystem::path& home, const history* results) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& dir : list_problems(home)) {
        try {
            const problem_spec spec = load_problem(dir);
            list.push_back({{"slug", spec.slug},
                            {"title", spec.title},
                            {"difficulty", spec.difficulty},
                            {"personal_best", best_json(spec, results)}});
        } catch (const spec_error& error) {
            list.push_back({{"slug", dir.filename().string()}, {"error", error.what()}});
        }
    }
    return list;
}

std::string requested_language(const nlohmann::json& request) {
    const std::string language = chosen_value(request, "language", solution_languages());
    return language.empty() ? "cuda" : language;
}

nlohmann::json editing_json(const problem_spec& spec, const std::string& language, const history* results,
                            const source_store& store) {
    nlohmann::json json = {
        {"language", language}, {"languages", solution_languages()}, {"starter", starter_source(spec, language)}};
    if (auto draft = store.draft(spec.slug, language)) {
        json["source"] = *draft;
        json["source_from"] = "draft";
    } else if (auto tried = last_attempt(spec, results, language)) {
        json["source"] = tried->first;
        json["source_from"] = "last attempt";
    } else {
        json["source"] = json["starter"];
        json["source_from"] = "starter";
    }
    return json;
}

nlohmann::json problem_json(const problem_spec& spec, const history* results, const source_store& store) {
    nlohmann::json json = {{"slug", spec.slug},
                           {"title", spec.title},
                           {"difficulty", spec.difficulty},
                           {"statement", statement_prose(spec)},
                           {"signature", spec.prototype()},
                           {"constraints", constraint_lines(spec)},
                           {"examples", examples_json(spec)},
                           {"tests", test_counts(spec)},
                           {"time_limit_ms", spec.time_limit_ms},
                           {"personal_best", best_json(spec, results)}};
    json.update(editing_json(spec, opening_language(spec, results, store), results, store));
    return json;
}

nlohmann::json history_sources_json(const history& results, const std::optional<std::string>& slug,
                                    const std::vector<problem_spec>& specs) {
    const auto attempts = results.attempts(slug);
    nlohmann::json json = history_json(attempts, personal_bests(results, specs));
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const auto text = attempt_source(attempts[i].source, attempts[i].source_hash, kSourceLimit);
        json["attempts"][i]["source_text"] = text ? nlohmann::json(*text) : nlohmann::json(nullptr);
        json["attempts"][i]["language"] = text ? nlohmann::json(language_of_source(attempts[i].source)) : nullptr;
    }
    return json;
}

}  // namespace gpujudge
