#include "path/learning_path.hpp"

#include "base/counted.hpp"
#include "catalog/solution_path.hpp"

#include <fmt/format.h>

#include <algorithm>
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

bool accepted(const std::optional<bench_figures>& figures) {
    return figures && figures->result == verdict::accepted && figures->median_us > 0;
}

double bytes_moved(const bench_figures& figures) {
    return figures.gbps * figures.median_us * 1e3;  // GB/s × µs = kB
}

// The benchmark whose figures the path shows, chosen as the README's speed table chooses: of the
// benchmarks some step was measured at, the one moving the most bytes; where several move as many
// (within 1 %), the one whose fastest step is furthest from the ceiling. Without any, the last one.
std::optional<std::string> figures_test(const problem_spec& spec, const measurements& measured,
                                        const std::vector<const solution_file*>& steps) {
    struct candidate {
        std::string test;
        double bytes = 0, best_percent = 0;
    };
    std::vector<candidate> candidates;
    for (const auto& test : spec.tests) {
        if (test.kind != test_kind::benchmark) continue;
        candidate found{test.name};
        for (const auto* step : steps) {
            const auto figures = measured.find(spec.slug, step->path.filename().string(), test.name);
            if (!accepted(figures)) continue;
            found.bytes = std::max(found.bytes, bytes_moved(*figures));
            found.best_percent = std::max(found.best_percent, figures->percent_of_peak);
        }
        if (found.bytes > 0) candidates.push_back(found);
    }
    if (candidates.empty()) return headline_test(spec);
    double most = 0;
    for (const auto& c : candidates) most = std::max(most, c.bytes);
    const candidate* chosen = nullptr;
    for (const auto& c : candidates)
        if (c.bytes >= 0.99 * most && (!chosen || c.best_percent < chosen->best_percent)) chosen = &c;
    return chosen->test;
}

// A step slower than the one before it at the path's size: the path is naive to fastest, and a learner
// following it should be told where a step costs time (where it teaches a technique, not a speed-up).
void mark_slower_steps(std::vector<path_step_view>& steps) {
    for (std::size_t i = 1; i < steps.size(); ++i)
        if (accepted(steps[i].measured) && accepted(steps[i - 1].measured) &&
            steps[i].measured->median_us > steps[i - 1].measured->median_us)
            steps[i].slower_than_step = steps[i - 1].step;
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
    const std::vector<solution_file> steps = path_steps(solutions);
    std::vector<const solution_file*> step_files;
    for (const auto& file : steps) step_files.push_back(&file);
    path.test = figures_test(spec, measured, step_files);
    for (const auto& file : steps) {
        path_step_view step{*file.step, file.path, file.technique, first_sentence(file.technique), std::nullopt};
        if (path.test) step.measured = measured.find(spec.slug, file.path.filename().string(), *path.test);
        path.steps.push_back(std::move(step));
    }
    mark_slower_steps(path.steps);
    return path;
}

std::string path_text(const learning_path& path) {
    std::string text = fmt::format("{} ({}): ", path.title, path.problem);
    if (path.steps.empty())
        return text + "no solution declares a step yet ('// step: N' in its header, with '// Technique: ...')\n";
    text += counted(path.steps.size(), "step") + ", naive to fastest\n";
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
        const std::string slower =
            step.slower_than_step ? fmt::format("  slower than step {}", *step.slower_than_step) : "";
        text += fmt::format("{:>4}  {:<32} {}{}\n", step.step, step.file.filename().string(),
                            figures_cells(step.measured), slower);
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
                         {"measured", measured},
                         {"slower_than_step",
                          step.slower_than_step ? nlohmann::json(*step.slower_than_step) : nlohmann::json(nullptr)}});
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
