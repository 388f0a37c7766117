#pragma once
// How a profile is shown: per kernel, then the roofline line, the suggestions and the report's
// path, as text or one JSON object; `--compare` puts two profiles side by side. A submission that
// did not pass its unprofiled run is shown as submit shows it.
#include "profile/run.hpp"
#include "report/judgement.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct profiled_source {
    std::filesystem::path source;
    profile_result result;
};

void print_profile(std::FILE* out, const problem_spec& spec, const profiled_source& profile, style look);
nlohmann::json profile_json(const problem_spec& spec, const profiled_source& profile);

// Two (or more) profiles of one test side by side: the call's figures and its longest kernel's,
// one column each, then each one's suggestions.
void print_comparison(std::FILE* out, const problem_spec& spec, const std::vector<profiled_source>& profiles,
                      style look);
nlohmann::json comparison_json(const problem_spec& spec, const std::vector<profiled_source>& profiles);

// The roofline line in words: "400.0 MB (metrics.bytes) take 120.5 µs at the measured ceiling...".
std::string describe_roofline(const roofline& line, bool capped);

}  // namespace gpujudge
