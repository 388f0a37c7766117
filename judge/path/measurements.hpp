#pragma once
// The figures checked in beside the solutions: what `gpujudge bench --all --json` printed on the H100,
// kept as solutions/measured-h100.json, so that `path`, the page and the README's table show real times
// on a machine without that GPU.
#include "bench/timing.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace gpujudge {

struct measured_problem {
    std::string device;  // the GPU's name, as bench reported it
    double peak_gbps = 0;
    std::map<std::string, std::vector<bench_figures>> files;  // by file name: the figures per benchmark size
};

struct measurements {
    std::filesystem::path file;
    bool present = false;                              // false: the file is not there (nothing measured yet)
    std::map<std::string, measured_problem> problems;  // by slug

    // `name`'s figures at `test` in `slug`; none when not measured.
    std::optional<bench_figures> find(const std::string& slug, const std::string& name, const std::string& test) const;
};

// <home>/solutions/measured-h100.json.
std::filesystem::path default_measurements_path(const std::filesystem::path& home);

// Reads bench --json's output (the array of --all, or one problem's object). A missing file is no
// measurements; one that cannot be read as bench's JSON is a problem_error (exit 10) naming it.
measurements load_measurements(const std::filesystem::path& file);

}  // namespace gpujudge
