#include "sanitize/report.hpp"

#include "base/counted.hpp"
#include "base/exit_codes.hpp"
#include "base/regex_line.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

std::size_t tests_run(const judgement& judged) {
    return static_cast<std::size_t>(std::count_if(judged.tests.begin(), judged.tests.end(),
                                                  [](const test_report& t) { return t.result != verdict::skipped; }));
}

// The test that ended the run early (a crash or a hang ends the runner, and the tool with it).
const test_report* run_ender(const judgement& judged) {
    for (const auto& test : judged.tests)
        if (test.result == verdict::runtime_error || test.result == verdict::time_limit_exceeded) return &test;
    return nullptr;
}

sanitize_decision not_run(const judgement& judged) {
    const std::string reason = judged.no_device && judged.compile.ok ? ": " + *judged.no_device : "";
    return {sanitize_verdict::not_run, exit_code_for(judged.overall),
            fmt::format("sanitize: not run ({}{})", to_string(judged.overall), reason)};
}

// The exit code of the test that ended the run where one did; the tool's failure otherwise.
sanitize_decision incomplete(const sanitize_result& result) {
    const std::size_t ran = tests_run(result.judged);
    const test_report* ender = run_ender(result.judged);
    std::string what = ran == result.judged.tests.size()
                           ? "compute-sanitizer ended before its summary"
                           : fmt::format("{} of {} tests ran", ran, result.judged.tests.size());
    if (ender) what += fmt::format("; test '{}': {}", ender->name, to_string(ender->result));
    const int exit = ender ? exit_code_for(ender->result) : static_cast<int>(exit_environment);
    return {sanitize_verdict::incomplete, exit, fmt::format("sanitize: incomplete ({}, {})", result.tool, what)};
}

// "race between a write at line 18 and a read at line 21": the second site named by its line
// alone where it is in the first one's file.
std::string describe_sides(const sanitizer_finding& finding) {
    std::string text = fmt::format("{}{} between", char(std::tolower(finding.kind.front())), finding.kind.substr(1));
    for (std::size_t i = 0; i < finding.at.size(); ++i) {
        const code_site& site = finding.at[i].site;
        std::string access = finding.at[i].access;
        std::transform(access.begin(), access.end(), access.begin(), [](unsigned char c) { return std::tolower(c); });
        const std::string where = site.file.empty() ? site.function
                                  : site.file == finding.at.front().site.file
                                      ? fmt::format("line {}", site.line)
                                      : fmt::format("{}:{}", site.file, site.line);
        text += fmt::format("{} a {} at {}", i == 0 ? "" : " and", access, where);
    }
    return text + fmt::format(" ({}{})", counted(static_cast<std::size_t>(finding.hazards), "hazard"),
                              finding.warning ? ", warnings" : "");
}

std::string describe(const sanitizer_finding& finding) {
    if (finding.at.size() >= 2) return describe_sides(finding);
    return finding.reports > 1 ? fmt::format("{} ({} reports)", finding.kind, finding.reports) : finding.kind;
}

// "file.cu:23", or the function where the tool had no line info.
std::string place(const sanitizer_finding& finding) {
    if (finding.at.empty()) return "compute-sanitizer";
    const code_site& site = finding.at.front().site;
    return site.file.empty() ? site.function : fmt::format("{}:{}", site.file, site.line);
}

// "thread (232,0,0) in block (3,0,0): Access to 0x... is out of bounds and is 1 bytes after an
// allocation of 4,000 bytes": the first report's own words, the neighbour's address left out.
std::string example_of(const sanitizer_finding& finding) {
    static const std::regex nearest(R"( the nearest allocation at 0x[0-9a-fA-F]+ of size)");
    std::string details;
    for (const auto& line : finding.details) details += (details.empty() ? "" : " ") + line;
    details = std::regex_replace(regex_line(details), nearest, " an allocation of");
    if (finding.thread.empty()) return details;
    return details.empty() ? finding.thread : finding.thread + ": " + details;
}

void print_finding(std::FILE* out, const sanitizer_finding& finding) {
    fmt::print(out, "{}: {}\n", place(finding), describe(finding));
    if (!finding.quoted.empty()) fmt::print(out, "  {:>5} | {}\n", finding.at.front().site.line, finding.quoted);
    if (const std::string example = example_of(finding); !example.empty()) fmt::print(out, "  e.g. {}\n", example);
}

void print_findings(std::FILE* out, const std::vector<sanitizer_finding>& findings) {
    for (std::size_t i = 0; i < findings.size() && i < kShownFindings; ++i) print_finding(out, findings[i]);
    if (findings.size() > kShownFindings)
        fmt::print(out, "... and {} more (--json lists them all)\n", findings.size() - kShownFindings);
}

void print_header(std::FILE* out, const problem_spec& spec, const std::filesystem::path& source,
                  const sanitize_result& result) {
    const judgement& judged = result.judged;
    fmt::print(out, "problem  {} ({})\n", spec.title, spec.slug);
    fmt::print(out, "source   {}\n", source.string());
    fmt::print(out, "tool     compute-sanitizer --tool {}, on the {} examples and functional tests\n", result.tool,
               judged.tests.size());
    if (judged.device) fmt::print(out, "device   {} ({})\n", judged.device->name, judged.device->arch);
    if (!judged.compile.ok) {
        fmt::print(out, "compile  failed\n");
        std::istringstream lines(judged.compile.diagnostics);
        for (std::string line; std::getline(lines, line);) fmt::print(out, "  {}\n", line);
    } else if (judged.no_device) {
        fmt::print(out, "device   none: {}\n", *judged.no_device);
    }
}

// Tests that did not pass under the tool, counted and the first few named: a kernel the tool
// stops leaves its outputs unfinished, and answers are submit's to judge.
void print_failed_tests(std::FILE* out, const judgement& judged) {
    std::vector<std::string> failed;
    for (const auto& test : judged.tests)
        if (test.result != verdict::accepted && test.result != verdict::skipped)
            failed.push_back(fmt::format("'{}' {}", test.name, to_string(test.result)));
    if (failed.empty()) return;
    const std::size_t named = std::min<std::size_t>(failed.size(), 3);
    std::string list = fmt::format("{}", fmt::join(failed.begin(), failed.begin() + named, ", "));
    if (failed.size() > named) list += fmt::format(" and {} more", failed.size() - named);
    fmt::print(out,
               "under the tool, {} of {} tests did not pass (a kernel the tool stops leaves its output unfinished; "
               "submit judges answers): {}\n",
               failed.size(), judged.tests.size(), list);
}

nlohmann::json site_json(const site_access& side) {
    return {
        {"access", side.access}, {"function", side.site.function}, {"file", side.site.file}, {"line", side.site.line}};
}

nlohmann::json findings_json(const std::vector<sanitizer_finding>& findings) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& finding : findings) {
        nlohmann::json sites = nlohmann::json::array();
        for (const auto& side : finding.at) sites.push_back(site_json(side));
        list.push_back({{"place", place(finding)},
                        {"kind", finding.kind},
                        {"description", describe(finding)},
                        {"warning", finding.warning},
                        {"reports", finding.reports},
                        {"hazards", finding.at.size() >= 2 ? finding.hazards : 0},  // racecheck's
                        {"source_line", finding.quoted},
                        {"example", example_of(finding)},
                        {"sites", sites}});
    }
    return list;
}

const char* verdict_name(sanitize_verdict v) {
    switch (v) {
        case sanitize_verdict::clean:
            return "clean";
        case sanitize_verdict::findings:
            return "findings";
        case sanitize_verdict::judge_findings:
            return "judge_findings";
        case sanitize_verdict::incomplete:
            return "incomplete";
        case sanitize_verdict::not_run:
            return "not_run";
    }
    return "not_run";
}

}  // namespace

sanitize_decision decide_sanitize(const sanitize_result& result) {
    const judgement& judged = result.judged;
    if (!judged.judged()) return not_run(judged);
    if (const std::size_t count = result.findings.submission.size(); count > 0)
        return {sanitize_verdict::findings, exit_sanitizer_findings,
                fmt::format("sanitize: {} ({})", counted(count, "finding"), result.tool)};
    if (const std::size_t count = result.findings.judge.size(); count > 0)
        return {sanitize_verdict::judge_findings, exit_internal,
                fmt::format("sanitize: no findings in your code, {} in gpujudge's own kernels ({}): a bug in "
                            "gpujudge, please report it",
                            count, result.tool)};
    if (!result.log.summary || tests_run(judged) < judged.tests.size()) return incomplete(result);
    return {sanitize_verdict::clean, exit_accepted,
            fmt::format("sanitize: clean ({}, {})", result.tool, counted(judged.tests.size(), "test"))};
}

void print_sanitize(std::FILE* out, const problem_spec& spec, const std::filesystem::path& source,
                    const sanitize_result& result, style look) {
    print_header(out, spec, source, result);
    const sanitize_decision decision = decide_sanitize(result);
    if (decision.verdict != sanitize_verdict::not_run) {
        fmt::print(out, "\n");
        print_findings(out, result.findings.submission);
        if (!result.findings.judge.empty()) {
            fmt::print(out, "in gpujudge's own kernels (not your code: a bug in gpujudge):\n");
            print_findings(out, result.findings.judge);
        }
        print_failed_tests(out, result.judged);
    }
    for (const auto& said : result.findings.other) fmt::print(out, "compute-sanitizer: {}\n", said.kind);
    if (result.log.summary) fmt::print(out, "compute-sanitizer: {}\n", *result.log.summary);
    const bool good = decision.verdict == sanitize_verdict::clean;
    fmt::print(out, "{}\n",
               look.color ? fmt::format(fmt::fg(good ? fmt::color::green : fmt::color::red) | fmt::emphasis::bold, "{}",
                                        decision.line)
                          : decision.line);
}

nlohmann::json sanitize_json(const problem_spec& spec, const std::filesystem::path& source,
                             const sanitize_result& result) {
    const sanitize_decision decision = decide_sanitize(result);
    nlohmann::json tests = nlohmann::json::array();
    for (const auto& test : result.judged.tests)
        tests.push_back({{"name", test.name},
                         {"kind", to_string(test.kind)},
                         {"verdict", to_string(test.result)},
                         {"message", test.message}});
    nlohmann::json other = nlohmann::json::array();
    for (const auto& said : result.findings.other) other.push_back(said.kind);
    nlohmann::json json = {{"problem", spec.slug},
                           {"source", source.string()},
                           {"tool", result.tool},
                           {"verdict", verdict_name(decision.verdict)},
                           {"exit_code", decision.exit_code},
                           {"summary", decision.line},
                           {"compile",
                            {{"ok", result.judged.compile.ok},
                             {"cached", result.judged.compile.cached},
                             {"diagnostics", result.judged.compile.diagnostics}}},
                           {"tests", tests},
                           {"findings", findings_json(result.findings.submission)},
                           {"judge_findings", findings_json(result.findings.judge)},
                           {"tool_messages", other},
                           {"tool_summary", result.log.summary.value_or("")}};
    if (result.judged.device) json["device"] = *result.judged.device;
    if (result.judged.no_device) json["no_device"] = *result.judged.no_device;
    return json;
}

}  // namespace gpujudge
