#pragma once
// `path`: a problem's steps, naive to fastest, each with what it teaches and the figures that bench
// measured for it on the H100 at the largest benchmark size; for the command line and the page.
#include "catalog/catalog.hpp"
#include "path/measurements.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct path_step_view {
    int step = 0;
    std::filesystem::path file;
    std::string technique;                  // the whole "Technique:" text
    std::string summary;                    // its first sentence
    std::optional<bench_figures> measured;  // at the largest benchmark; none: not measured
};

struct learning_path {
    std::string problem, title;
    std::optional<std::string> test;          // the largest benchmark size, where the figures are taken
    std::filesystem::path measurements_file;  // below the home, named from it
    bool measurements_present = false;
    std::string device;
    double peak_gbps = 0;
    std::vector<path_step_view> steps;
    std::vector<std::string> errors;  // the steps' own errors, "path:line: message" (validate reports them too)
};

// The steps of `spec`'s solutions under <home>/solutions/<slug>/ with their figures from `measured`.
learning_path build_path(const std::filesystem::path& home, const problem_spec& spec, const measurements& measured);

// A header line, then per step its number, file and figures ("not measured" without them) and, below,
// what it teaches (the technique's first sentence).
std::string path_text(const learning_path& path);

// {problem, title, test, measurements: {file, present, device, peak_gbps}, steps: [{step, file, technique,
// summary, measured: null | {test, verdict, median_us, gbps, percent_of_peak, speedup}}]}.
nlohmann::json path_json(const learning_path& path);

}  // namespace gpujudge
