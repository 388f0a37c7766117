#pragma once
// The history as JSON: `history --json` prints it, `serve` answers GET /api/history with it.
#include "history/database.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace gpujudge {

// The value, or null where there is none (the history's JSON and the gradebook's).
template <typename T>
nlohmann::json optional_number(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json attempt_json(const attempt& a);

// {"source", "test", "median_us", "gbps", "recorded_at"}
nlohmann::json personal_best_json(const personal_best& best);

// {"attempts": [...], "personal_bests": [...]}
nlohmann::json history_json(const std::vector<attempt>& attempts, const std::vector<attempt>& bests);

}  // namespace gpujudge
