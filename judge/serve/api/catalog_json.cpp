#include "serve/api/catalog_json.hpp"

#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "catalog/problem_view.hpp"
#include "catalog/starter.hpp"
#include "history/json.hpp"
#include "serve/api/api_error.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

// A source the history may show: a learner's file, never a large one.
constexpr std::uintmax_t kSourceLimit = 1 << 20;

nlohmann::json best_json(const problem_spec& spec, const history* results) {
    const auto test = headline_test(spec);
    if (!results || !test) return nullptr;
    const auto best = results->best(spec.slug, *test);
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

// The draft, else the newest attempt's source still on disk, else the starter.
std::pair<std::string, std::string> source_to_edit(const problem_spec& spec, const history* results,
                                                   const source_store& store) {
    if (auto draft = store.draft(spec.slug)) return {*draft, "draft"};
    if (results)
        for (const auto& tried : results->attempts(spec.slug))
            if (auto text = attempt_source(tried.source, tried.source_hash, kSourceLimit))
                return {*text, "last attempt"};
    return {starter_source(spec), "starter"};
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

nlohmann::json problem_json(const problem_spec& spec, const history* results, const source_store& store) {
    const auto [source, from] = source_to_edit(spec, results, store);
    return {{"slug", spec.slug},
            {"title", spec.title},
            {"difficulty", spec.difficulty},
            {"statement", statement_prose(spec)},
            {"signature", spec.prototype()},
            {"constraints", constraint_lines(spec)},
            {"examples", examples_json(spec)},
            {"tests", test_counts(spec)},
            {"time_limit_ms", spec.time_limit_ms},
            {"personal_best", best_json(spec, results)},
            {"starter", starter_source(spec)},
            {"source", source},
            {"source_from", from}};
}

nlohmann::json history_sources_json(const history& results, const std::optional<std::string>& slug) {
    const auto attempts = results.attempts(slug);
    nlohmann::json json = history_json(attempts, results.best_attempts(slug));
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const auto text = attempt_source(attempts[i].source, attempts[i].source_hash, kSourceLimit);
        json["attempts"][i]["source_text"] = text ? nlohmann::json(*text) : nlohmann::json(nullptr);
    }
    return json;
}

}  // namespace gpujudge
