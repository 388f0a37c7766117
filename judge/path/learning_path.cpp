#include "path/learning_path.hpp"

#include "catalog/solution_path.hpp"

#include <fmt/format.h>

#include <sstream>

namespace gpujudge {

namespace {

// `text` in lines of at most `width` characters, each after `prefix`.
std::string wrapped(const std::string& text, const std::string& prefix, std::size_t width) {
    std::istringstream words(text);
    std::string out, line;
    for (std::string word; words >> word;) {
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += prefix + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += prefix + line + "\n";
    return out;
}

std::string figures_cells(const std::optional<bench_figures>& measured) {
    if (!measured) return "not measured";
    if (measured->result != verdict::accepted) return to_string(measured->result);
    return fmt::format("{:>9.1f} {:>7.0f} {:>10.1f} % {:>9}", measured->median_us, measured->gbps,
                       measured->percent_of_peak,
                       measured->speedup > 0 ? fmt::format("{:.2f}", measured->speedup) : std::string("–"));
}

}  // namespace

learning_path build_path(const std::filesystem::path& home, const problem_spec& spec, const measurements& measured) {
    learning_path path;
    path.problem = spec.slug;
    path.title = spec.title;
    path.test = headline_test(spec);
    // Named from the home, as the README names it: solutions/measured-h100.json.
    const auto relative = measured.file.lexically_relative(home);
    path.measurements_file = relative.empty() || *relative.begin() == ".." ? measured.file : relative;
    path.measurements_present = measured.present;
    if (const auto found = measured.problems.find(spec.slug); found != measured.problems.end()) {
        path.device = found->second.device;
        path.peak_gbps = found->second.peak_gbps;
    }
    const std::vector<solution_file> solutions = list_solutions(home, spec.slug);
    for (const auto& file : solutions)
        if (file.step_line > 0 && !file.header_error.empty()) path.errors.push_back(describe_header_error(file));
    for (const auto& error : path_errors(solutions)) path.errors.push_back(error);
    for (const auto& file : path_steps(solutions)) {
        path_step_view step{*file.step, file.path, file.technique, first_sentence(file.technique), std::nullopt};
        if (path.test) step.measured = measured.find(spec.slug, file.path.filename().string(), *path.test);
        path.steps.push_back(std::move(step));
    }
    return path;
}

std::string path_text(const learning_path& path) {
    std::string text = fmt::format("{} ({}): ", path.title, path.problem);
    if (path.steps.empty())
        return text + "no solution declares a step yet ('// step: N' in its header, with '// Technique: ...')\n";
    text += fmt::format("{} step{}, naive to fastest\n", path.steps.size(), path.steps.size() == 1 ? "" : "s");
    if (!path.measurements_present)
        text += fmt::format("figures: none yet ({} is not there: gpujudge bench --all --json on the H100 writes it)\n",
                            path.measurements_file.string());
    else if (path.device.empty())
        text += fmt::format("figures: {} has none for this problem\n", path.measurements_file.string());
    else
        text += fmt::format("figures: {} at {}, ceiling {:.0f} GB/s, from {}\n", path.device, path.test.value_or("?"),
                            path.peak_gbps, path.measurements_file.string());
    text += fmt::format("\n{:>4}  {:<32} {:>9} {:>7} {:>12} {:>9}\n", "step", "file", "median µs", "GB/s",
                        "% of ceiling", "× baseline");
    for (const auto& step : path.steps) {
        text +=
            fmt::format("{:>4}  {:<32} {}\n", step.step, step.file.filename().string(), figures_cells(step.measured));
        text += wrapped(step.summary, "      ", 94);
    }
    return text;
}

nlohmann::json path_json(const learning_path& path) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : path.steps) {
        nlohmann::json measured = nullptr;
        if (step.measured)
            measured = {{"test", step.measured->test},
                        {"verdict", to_string(step.measured->result)},
                        {"median_us", step.measured->median_us},
                        {"gbps", step.measured->gbps},
                        {"percent_of_peak", step.measured->percent_of_peak},
                        {"speedup", step.measured->speedup}};
        steps.push_back({{"step", step.step},
                         {"file", step.file.filename().string()},
                         {"path", step.file.string()},
                         {"technique", step.technique},
                         {"summary", step.summary},
                         {"measured", measured}});
    }
    return {{"problem", path.problem},
            {"title", path.title},
            {"test", path.test ? nlohmann::json(*path.test) : nlohmann::json(nullptr)},
            {"measurements",
             {{"file", path.measurements_file.string()},
              {"present", path.measurements_present},
              {"device", path.device},
              {"peak_gbps", path.peak_gbps}}},
            {"steps", steps},
            {"errors", path.errors}};
}

}  // namespace gpujudge
