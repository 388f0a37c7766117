#include "history/json.hpp"

namespace gpujudge {

nlohmann::json attempt_json(const attempt& a) {
    return {{"recorded_at", a.recorded_at},
            {"problem", a.problem},
            {"source", a.source},
            {"source_hash", a.source_hash},
            {"origin", a.origin},
            {"verdict", to_string(a.outcome)},
            {"passed", a.passed},
            {"total", a.total},
            {"device", a.device_name},
            {"test", a.test},
            {"median_us", optional_number(a.median_us)},
            {"gbps", optional_number(a.gbps)},
            {"percent_of_peak", optional_number(a.percent_of_peak)},
            {"problem_version", a.problem_version}};
}

nlohmann::json personal_best_json(const personal_best& best) {
    return {{"source", best.source},
            {"test", best.test},
            {"median_us", best.median_ms * 1e3},
            {"gbps", best.gbps},
            {"recorded_at", best.recorded_at}};
}

nlohmann::json history_json(const std::vector<attempt>& attempts, const std::vector<attempt>& bests) {
    nlohmann::json json = {{"attempts", nlohmann::json::array()}, {"personal_bests", nlohmann::json::array()}};
    for (const auto& a : attempts) json["attempts"].push_back(attempt_json(a));
    for (const auto& a : bests) json["personal_bests"].push_back(attempt_json(a));
    return json;
}

}  // namespace gpujudge
