#include "serve/api/leaderboard_api.hpp"

#include "base/user_errors.hpp"
#include "grade/grade_reports.hpp"
#include "grade/gradebook.hpp"
#include "serve/api/api_error.hpp"

#include <fmt/format.h>

namespace gpujudge {

nlohmann::json leaderboard_reply(const std::filesystem::path& configured) {
    std::filesystem::path path;
    if (!configured.empty()) {
        path = gradebook_path(configured);
    } else if (const auto run = remembered_grade_run()) {
        path = gradebook_path(*run);
    } else {
        throw api_error(404, "no_gradebook",
                        "no gradebook to show: grade a class (gpujudge grade <dir>), or start serve with --gradebook "
                        "<run folder>");
    }
    std::vector<grade_row> rows;
    try {
        rows = gradebook(path, gradebook::access::read).rows();
    } catch (const std::exception& error) {
        if (!std::filesystem::exists(path))
            throw api_error(404, "no_gradebook",
                            fmt::format("{}: no gradebook there (the latest grade's run folder was moved or removed?)",
                                        path.string()));
        throw api_error(503, "gradebook_unusable", error.what());
    }
    return {{"gradebook", path.string()},
            {"source", configured.empty() ? "latest grade" : "option"},
            {"rows", rows.size()},
            {"problems", leaderboard_json(rows)}};
}

void check_gradebook_option(const std::filesystem::path& configured) {
    if (configured.empty()) return;
    try {
        gradebook(gradebook_path(configured), gradebook::access::read);
    } catch (const std::exception& error) {
        throw usage_error(fmt::format("--gradebook: {}", error.what()));
    }
}

}  // namespace gpujudge
