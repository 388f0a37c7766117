#include "path/measurements.hpp"

#include "base/file_text.hpp"
#include "base/problem_error.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::optional<bench_figures> measurements::find(const std::string& slug, const std::string& name,
                                                const std::string& test) const {
    const auto problem = problems.find(slug);
    if (problem == problems.end()) return std::nullopt;
    const auto file = problem->second.files.find(name);
    if (file == problem->second.files.end()) return std::nullopt;
    for (const auto& figures : file->second)
        if (figures.test == test) return figures;
    return std::nullopt;
}

std::filesystem::path default_measurements_path(const std::filesystem::path& home) {
    return home / "solutions" / "measured-h100.json";
}

measurements load_measurements(const std::filesystem::path& file) {
    measurements result;
    result.file = file;
    std::error_code error;
    if (!std::filesystem::exists(file, error)) return result;
    const auto text = read_file_text(file);
    if (!text) throw problem_error(fmt::format("{}: cannot be read", file.string()));
    try {
        nlohmann::json json = nlohmann::json::parse(*text);
        if (json.is_object()) json = nlohmann::json::array({json});
        for (const auto& report : json) {
            if (report.contains("no_device")) continue;  // bench ran without a GPU: nothing was measured
            measured_problem& problem = result.problems[report.at("problem").get<std::string>()];
            problem.peak_gbps = report.at("peak_gbps").get<double>();
            if (report.contains("device")) problem.device = report.at("device").at("name").get<std::string>();
            for (const auto& entry : report.at("entries")) {
                const std::string name = std::filesystem::path(entry.at("source").get<std::string>()).filename();
                problem.files[name] = entry.at("figures").get<std::vector<bench_figures>>();
            }
        }
    } catch (const nlohmann::json::exception& failure) {
        throw problem_error(
            fmt::format("{}: not the output of gpujudge bench --all --json: {}", file.string(), failure.what()));
    }
    result.present = true;
    return result;
}

}  // namespace gpujudge
