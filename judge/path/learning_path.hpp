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
    std::string technique;                     // the whole "Technique:" text
    std::string summary;                       // its first sentence
    std::optional<bench_figures> measured;     // at the path's benchmark; none: not measured
    std::optional<int> slower_than_step = {};  // the step before, where this one was measured slower
};

struct learning_path {
    std::string problem, title;
    std::optional<std::string> test;  // where the figures are taken: the largest benchmark measured (see build_path)
    std::filesystem::path measurements_file;  // below the home, named from it
    bool measurements_present = false;
    std::string device;
    double peak_gbps = 0;
    std::vector<path_step_view> steps;
    std::vector<std::string> errors;  // the steps' own errors, "path:line: message" (validate reports them too)
};

// The steps of `spec`'s solutions under <home>/solutions/<slug>/ with their figures from `measured`, at
// the benchmark moving the most bytes that some step was measured at (of equal sizes, the one whose
// fastest step is furthest from the ceiling, as the README's table): a benchmark renamed since the
// figures were taken does not leave the path without any. Each step measured slower than the one
// before says so.
learning_path build_path(const std::filesystem::path& home, const problem_spec& spec, const measurements& measured);

// A header line, then per step its number, file and figures ("not measured" without them; "slower
// than step N" after them where so) and, below, what it teaches (the technique's first sentence).
std::string path_text(const learning_path& path);

// {problem, title, test, measurements: {file, present, device, peak_gbps}, steps: [{step, file, technique,
// summary, measured: null | {test, verdict, median_us, gbps, percent_of_peak, speedup}, slower_than_step:
// null | N}]}.
nlohmann::json path_json(const learning_path& path);

}  // namespace gpujudge
