#pragma once
// The reports of other gpujudge commands that the page shows beside a judgement: `profile` (Nsight
// Compute) and `sanitize` (compute-sanitizer), where this binary has them. Each runs as a child,
// `gpujudge <command> <slug> <file> --json`, as a user would run it, and its JSON is passed on as it
// is: the page renders whatever the object holds.
#include "serve/event_stream.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

// "profile", "sanitize": the commands the server offers when the binary has them.
const std::vector<std::string>& report_names();

// What every report's command line starts with: this binary and the server's global options.
struct report_launch {
    std::filesystem::path gpujudge;  // this binary
    std::filesystem::path home;
    std::string backend;  // "device" or "host"
    bool sandbox = true;  // false: the server runs with --no-sandbox, and so does the command
};

// The command line of report `name` on `source`. The request may choose only from fixed values:
// "tool" (sanitize: one of sanitizer_tools()) and "test" (profile: a
// benchmark's name); anything else is api_error 400.
std::vector<std::string> report_argv(const std::string& name, const problem_spec& spec,
                                     const std::filesystem::path& source, const nlohmann::json& request,
                                     const report_launch& launch);

// Runs it: the "result" event {"report", "exit_code", "json" (the command's object, or null when
// it printed none), "output" (whatever else it printed: warnings, an error message)}.
server_event run_report(const std::string& name, const std::vector<std::string>& argv, std::chrono::seconds timeout);

}  // namespace gpujudge
