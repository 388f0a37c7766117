// `gpujudge history [problem]`: every attempt, newest first, then the personal bests.
#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "history/json.hpp"
#include "judging/submission.hpp"

#include <fmt/format.h>

#include <map>

namespace gpujudge {

namespace {

// The path as typed from here when the file is below the working directory, else in full.
std::string shown_path(const std::string& source) {
    std::error_code error;
    const auto relative = std::filesystem::path(source).lexically_relative(std::filesystem::current_path(error));
    if (error || relative.empty() || *relative.begin() == "..") return source;
    return relative.string();
}

std::string figure(const std::optional<double>& value, const char* format) {
    return value ? fmt::format(format, *value) : "-";
}

// Padded by hand: colour's escape codes would count towards a format width.
std::string padded_verdict(verdict v, style look, std::size_t width) {
    const std::size_t length = std::string(to_string(v)).size();
    return styled_verdict(v, look) + std::string(width > length ? width - length : 0, ' ');
}

// The version of each problem shown here now: an attempt on another is marked, as it counts for no best.
// A problem this home holds that does not load has no version ("").
using versions_now = std::map<std::string, std::string>;

// The problem's slug, marked " *" when the attempt was judged on an earlier version of the problem, " !"
// when the home's problem does not load now, " ?" when this home holds no such problem; rows kept
// before versions were are not marked.
std::string problem_cell(const attempt& a, const versions_now& versions) {
    const auto now = versions.find(a.problem);
    if (now == versions.end()) return a.problem + " ?";
    if (now->second.empty()) return a.problem + " !";
    return a.problem_version.empty() || a.problem_version == now->second ? a.problem : a.problem + " *";
}

void print_attempts(const std::vector<attempt>& attempts, const versions_now& versions, style look) {
    fmt::print("{:<19}  {:<24} {:<6}  {:<20} {:>7}  {:>10} {:>9}  {:<12}  {}\n", "time (UTC)", "problem", "how",
               "verdict", "tests", "median µs", "% of peak", "source hash", "file");
    std::string marks;
    for (const auto& a : attempts) {
        const std::string problem = problem_cell(a, versions);
        if (problem != a.problem && marks.find(problem.back()) == std::string::npos) marks += problem.back();
        fmt::print("{:<19}  {:<24} {:<6}  {} {:>7}  {:>10} {:>9}  {:<12}  {}\n", a.recorded_at, problem, a.origin,
                   padded_verdict(a.outcome, look, 20), fmt::format("{}/{}", a.passed, a.total),
                   figure(a.median_us, "{:.1f}"), figure(a.percent_of_peak, "{:.0f} %"), a.source_hash.substr(0, 12),
                   shown_path(a.source));
    }
    if (marks.find('*') != std::string::npos)
        fmt::print(
            "* judged on an earlier version of the problem (its problem.yaml, reference or folder has changed "
            "since): not counted among the personal bests\n");
    if (marks.find('!') != std::string::npos)
        fmt::print("! a problem this home holds that does not load now (gpujudge validate says why)\n");
    if (marks.find('?') != std::string::npos) fmt::print("? a problem this home does not hold\n");
}

void print_bests(const std::vector<attempt>& bests) {
    fmt::print("\npersonal bests (the fastest accepted submit of each problem)\n");
    if (bests.empty()) {
        fmt::print("  none yet: a submit that is accepted and timed sets one\n");
        return;
    }
    fmt::print("{:<24} {:>10} {:>8} {:>9}  {:<20} {:<19}  {}\n", "problem", "median µs", "GB/s", "% of peak", "size",
               "time (UTC)", "file");
    for (const auto& a : bests)
        fmt::print("{:<24} {:>10} {:>8} {:>9}  {:<20} {:<19}  {}\n", a.problem, figure(a.median_us, "{:.1f}"),
                   figure(a.gbps, "{:.0f}"), figure(a.percent_of_peak, "{:.0f} %"), a.test, a.recorded_at,
                   shown_path(a.source));
}

}  // namespace

command_action define_history(CLI::App& command) {
    struct options {
        std::string problem;
        bool json = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Only this problem's attempts (slug or folder)");
    command.add_flag("--json", opts->json, "Print one JSON object instead of the tables");
    return [opts](cli_context& context) {
        if (!context.judge.results)
            throw usage_error(fmt::format(
                "the history database {} cannot be used (see the warning above), so there are no attempts to show; "
                "set GPUJUDGE_DATA_DIR to keep them elsewhere",
                default_history_path().string()));
        std::optional<std::string> slug;
        std::vector<problem_spec> specs;  // whose bests to show: the one named, else the catalog's
        if (!opts->problem.empty()) slug = specs.emplace_back(load_named_problem(context, opts->problem)).slug;
        if (!slug) specs = load_catalog(context.judge.home);
        const auto attempts = context.judge.results->attempts(slug);
        const auto bests = personal_bests(*context.judge.results, specs);
        if (opts->json)
            fmt::print("{}\n", json_text(history_json(attempts, bests), 2));
        else if (attempts.empty())
            fmt::print("no attempts{} yet: `gpujudge run` and `gpujudge submit` are kept here\n",
                       slug ? " on " + *slug : "");
        else {
            versions_now versions;
            if (!slug)
                for (const auto& dir : list_problems(context.judge.home)) versions[dir.filename().string()] = "";
            for (const auto& spec : specs) versions[spec.slug] = problem_version(spec);
            print_attempts(attempts, versions, context.look);
            print_bests(bests);
        }
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
