#include "serve/api/report_commands.hpp"

#include "base/json_text.hpp"
#include "process/child_process.hpp"
#include "serve/api/api_error.hpp"
#include "toolkit/compute_sanitizer.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

std::vector<std::string> benchmark_names(const problem_spec& spec) {
    std::vector<std::string> names;
    for (const auto& test : spec.tests)
        if (test.kind == test_kind::benchmark) names.push_back(test.name);
    return names;
}

// Where the command's JSON object starts: the first line that starts with "{" (warnings come before).
std::size_t object_start(const std::string& output) {
    if (output.rfind('{', 0) == 0) return 0;
    const std::size_t at = output.find("\n{");
    return at == std::string::npos ? std::string::npos : at + 1;
}

}  // namespace

const std::vector<std::string>& report_names() {
    static const std::vector<std::string> names = {"profile", "sanitize"};
    return names;
}

std::vector<std::string> report_argv(const std::string& name, const problem_spec& spec,
                                     const std::filesystem::path& source, const nlohmann::json& request,
                                     const report_launch& launch) {
    std::vector<std::string> argv = {launch.gpujudge.string(),
                                     "--color",
                                     "never",
                                     "--home",
                                     launch.home.string(),
                                     "--backend",
                                     launch.backend,
                                     name,
                                     spec.slug,
                                     source.string(),
                                     "--json"};
    if (!launch.sandbox) argv.insert(argv.begin() + 1, "--no-sandbox");
    if (name == "sanitize")
        if (const std::string tool = chosen_value(request, "tool", sanitizer_tools()); !tool.empty())
            argv.insert(argv.end(), {"--tool", tool});
    if (name == "profile")
        if (const std::string test = chosen_value(request, "test", benchmark_names(spec)); !test.empty())
            argv.insert(argv.end(), {"--test", test});
    return argv;
}

server_event run_report(const std::string& name, const std::vector<std::string>& argv, std::chrono::seconds timeout) {
    const command_result run = run_command(argv, timeout);
    nlohmann::json json = nullptr;
    std::string output = run.output;
    if (const std::size_t start = object_start(run.output); start != std::string::npos) {
        json = parse_outside_json(run.output.substr(start));  // it may quote the learner's text
        if (json.is_discarded())
            json = nullptr;
        else
            output = run.output.substr(0, start);
    }
    if (run.exit.timed_out) output += fmt::format("gpujudge {} did not end within {} s\n", name, timeout.count());
    return {"result",
            {{"report", name},
             {"exit_code", run.exit.signaled ? -run.exit.signal : run.exit.code},
             {"json", json},
             {"output", output}}};
}

}  // namespace gpujudge
