#include "report.hpp"

#include "exit_codes.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

namespace gpujudge {

std::string styled_verdict(verdict v, style look) {
    const char* name = to_string(v);
    if (!look.color) return name;
    const auto color = v == verdict::accepted ? fmt::color::green : v == verdict::skipped ? fmt::color::yellow
                                                                                         : fmt::color::red;
    return fmt::format(fmt::fg(color) | fmt::emphasis::bold, "{}", name);
}

namespace {

std::string indent(const std::string& text, const char* prefix) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out += prefix + text.substr(start, end - start) + "\n";
        start = end + 1;
    }
    return out;
}

}  // namespace

void print_submission(std::FILE* out, const problem_spec& spec, const std::filesystem::path& source,
                      const submission_result& result, style look) {
    fmt::print(out, "problem  {} ({})\n", spec.title, spec.slug);
    fmt::print(out, "source   {}\n", source.string());
    if (!result.run.device.is_null())
        fmt::print(out, "device   {} ({})\n", result.run.device.value("name", "?"), result.run.device.value("arch", "?"));
    if (!result.compile.ok) {
        fmt::print(out, "compile  failed\n{}", indent(result.compile.diagnostics, "  "));
    } else {
        fmt::print(out, "compile  ok ({})\n", result.compile.cached ? "cached" : fmt::format("{:.1f} s", result.compile.seconds));
        if (!result.compile.diagnostics.empty()) fmt::print(out, "{}", indent(result.compile.diagnostics, "  "));
    }
    if (result.run.no_device) fmt::print(out, "device   none: {}\n", *result.run.no_device);
    std::size_t passed = 0;
    for (const auto& test : result.run.tests) {
        passed += test.result == verdict::accepted;
        fmt::print(out, "  {:<11} {:<40} {}", to_string(test.kind), test.name, styled_verdict(test.result, look));
        if (test.result == verdict::accepted) fmt::print(out, "  {:.2f} ms", test.wall_ms);
        fmt::print(out, "\n");
        if (!test.message.empty() && test.result != verdict::accepted) fmt::print(out, "{}", indent(test.message, "      "));
    }
    if (result.overall != verdict::accepted && !result.run.program_output.empty())
        fmt::print(out, "output of the program (last lines):\n{}", indent(result.run.program_output, "  | "));
    fmt::print(out, "verdict: {}", styled_verdict(result.overall, look));
    if (!result.run.tests.empty()) fmt::print(out, " ({}/{} tests passed)", passed, result.run.tests.size());
    fmt::print(out, "\n");
}

nlohmann::json submission_json(const problem_spec& spec, const std::filesystem::path& source,
                               const submission_result& result) {
    nlohmann::json tests = nlohmann::json::array();
    for (const auto& test : result.run.tests)
        tests.push_back({{"name", test.name},
                         {"kind", to_string(test.kind)},
                         {"verdict", to_string(test.result)},
                         {"message", test.message},
                         {"wall_ms", test.wall_ms}});
    nlohmann::json json = {{"problem", spec.slug},
                           {"source", source.string()},
                           {"verdict", to_string(result.overall)},
                           {"exit_code", exit_code_for(result.overall)},
                           {"compile", {{"ok", result.compile.ok},
                                        {"cached", result.compile.cached},
                                        {"diagnostics", result.compile.diagnostics}}},
                           {"tests", tests}};
    if (!result.run.device.is_null()) json["device"] = result.run.device;
    if (result.run.no_device) json["no_device"] = *result.run.no_device;
    if (!result.run.program_output.empty()) json["program_output"] = result.run.program_output;
    return json;
}

}  // namespace gpujudge
