#include "report/judgement.hpp"

#include "base/exit_codes.hpp"
#include "base/printable_text.hpp"
#include "bench/report.hpp"
#include "catalog/catalog.hpp"
#include "history/json.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <cstdlib>
#include <new>

namespace gpujudge {

std::string styled_verdict(verdict v, style look) {
    const char* name = to_string(v);
    if (!look.color) return name;
    const auto color = v == verdict::accepted  ? fmt::color::green
                       : v == verdict::skipped ? fmt::color::yellow
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
                      const judgement& result, style look) {
    fmt::print(out, "problem  {} ({})\n", spec.title, spec.slug);
    // The compiler's words and a test's message quote the submission (a #warning, a string it printed
    // into a message): escaped as its output is, or ESC bytes could paint a verdict of their own.
    fmt::print(out, "source   {}\n", printable_output(source.string()));
    if (result.device) fmt::print(out, "device   {} ({})\n", result.device->name, result.device->arch);
    if (!result.compile.ok) {
        fmt::print(out, "compile  failed\n{}", indent(printable_output(result.compile.diagnostics), "  "));
    } else {
        fmt::print(out, "compile  ok ({})\n",
                   result.compile.cached ? "cached" : fmt::format("{:.1f} s", result.compile.seconds));
        if (!result.compile.diagnostics.empty())
            fmt::print(out, "{}", indent(printable_output(result.compile.diagnostics), "  "));
    }
    if (result.no_device) fmt::print(out, "device   none: {}\n", *result.no_device);
    for (const auto& test : result.judged() ? result.tests : std::vector<test_report>{}) {
        fmt::print(out, "  {:<11} {:<40} {}", to_string(test.kind), test.name, styled_verdict(test.result, look));
        if (test.result == verdict::accepted) fmt::print(out, "  {:.2f} ms", test.wall_ms);
        fmt::print(out, "\n");
        if (!test.message.empty() && test.result != verdict::accepted && test.result != verdict::skipped)
            fmt::print(out, "{}", indent(printable_output(test.message), "      "));
    }
    if (result.bench) fmt::print(out, "\n{}\n", bench_markdown(*result.bench));
    if (!result.program_output.empty())  // accepted too: a learner debugging with printf sees it ran
        fmt::print(out, "output of the program (last lines):\n{}",
                   indent(printable_output(result.program_output), "  | "));
    fmt::print(out, "verdict: {}", styled_verdict(result.overall, look));
    if (result.judged()) fmt::print(out, " ({}/{} tests passed)", result.passed(), result.tests.size());
    fmt::print(out, "\n");
    // A timed run decided it (its tests passed and printed no message): decide()'s line says why.
    const bench_entry* mine = submission_entry(result);
    if (mine && result.overall != verdict::accepted && deciding_run(*mine))
        fmt::print(out, "{}\n", indent(result.reason, "  "));
}

std::string submission_text(const problem_spec& spec, const std::filesystem::path& source, const judgement& result) {
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* out = open_memstream(&buffer, &size);
    if (!out) throw std::bad_alloc();
    print_submission(out, spec, source, result, style{});
    std::fclose(out);  // sets buffer and size
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

std::optional<personal_best> best_after(const problem_spec& spec, const judgement& result, const history* results) {
    const auto test = headline_test(spec);
    if (!result.bench || !results || !test) return std::nullopt;
    return results->best(spec.slug, problem_version(spec), *test);
}

nlohmann::json submission_json(const problem_spec& spec, const std::filesystem::path& source, const judgement& result,
                               const history* results) {
    nlohmann::json tests = nlohmann::json::array();
    for (const auto& test : result.tests)
        tests.push_back({{"name", test.name},
                         {"kind", to_string(test.kind)},
                         {"verdict", to_string(test.result)},
                         {"message", test.message},
                         {"cause", test.cause ? nlohmann::json(to_string(*test.cause)) : nlohmann::json()},
                         {"wall_ms", test.wall_ms}});
    nlohmann::json json = {
        {"problem", spec.slug},
        {"source", source.string()},
        {"verdict", to_string(result.overall)},
        {"exit_code", exit_code_for(result.overall)},
        {"reason", result.reason},
        {"judged", result.judged()},
        {"passed", result.passed()},
        {"compile",
         {{"ok", result.compile.ok}, {"cached", result.compile.cached}, {"diagnostics", result.compile.diagnostics}}},
        {"tests", tests}};
    if (result.device) json["device"] = *result.device;
    if (result.no_device) json["no_device"] = *result.no_device;
    if (result.bench) json["bench"] = bench_json(*result.bench);
    if (!result.program_output.empty()) json["program_output"] = printable_output(result.program_output);
    if (const auto best = best_after(spec, result, results)) json["personal_best"] = personal_best_json(*best);
    return json;
}

}  // namespace gpujudge
