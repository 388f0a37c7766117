#include "catalog/catalog.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/nearest_name.hpp"
#include "base/user_errors.hpp"
#include "toolkit/compute_sanitizer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace gpujudge {

namespace fs = std::filesystem;

namespace {

// A problem.yaml in `dir`, a dangling link too: load_problem says what is wrong with it, where the
// folder would otherwise be no problem at all ("unknown problem ... (known: )").
bool has_problem_yaml(const fs::path& dir) {
    std::error_code error;
    const fs::file_type type = fs::symlink_status(dir / "problem.yaml", error).type();
    return type != fs::file_type::not_found && type != fs::file_type::none;  // none: no such path (too long, say)
}

// A problems/ folder that holds a problem (<slug>/problem.yaml): a course's own catalog counts,
// README.md or not, and an unrelated folder named problems/ does not.
bool holds_a_problem(const fs::path& problems) {
    std::error_code error;
    for (fs::directory_iterator it(problems, error), end; !error && it != end; it.increment(error))
        if (has_problem_yaml(it->path())) return true;
    return false;
}

}  // namespace

fs::path find_home() {
    if (const char* home = std::getenv("GPUJUDGE_HOME"); home && *home) return home;
    for (fs::path dir = fs::current_path(); !dir.empty(); dir = dir.parent_path()) {
        if (holds_a_problem(dir / "problems")) return dir;
        if (dir == dir.root_path()) break;
    }
    return GPUJUDGE_SOURCE_DIR;
}

std::vector<fs::path> list_problems(const fs::path& home) {
    std::vector<fs::path> dirs;
    std::error_code error;
    // A wrong --home would otherwise look like an empty catalog: nothing listed, all "validated".
    if (!fs::is_directory(home / "problems", error))
        throw usage_error(
            fmt::format("{}: no problems/ folder here (the home is set by --home or GPUJUDGE_HOME)", home.string()));
    for (const auto& entry : fs::directory_iterator(home / "problems"))
        if (entry.is_directory() && has_problem_yaml(entry.path())) dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

std::vector<problem_spec> load_catalog(const fs::path& home) {
    std::vector<problem_spec> specs;
    for (const auto& dir : list_problems(home)) {
        try {
            specs.push_back(load_problem(dir));
        } catch (const spec_error&) {  // a broken problem is validate's and list's to report
        }
    }
    return specs;
}

std::string problem_version(const problem_spec& spec) {
    std::error_code error;
    const fs::path folder = fs::weakly_canonical(spec.dir, error);
    return content_hash({"problem version 1", spec.yaml_text, read_file_text(spec.dir / "reference.cpp").value_or(""),
                         (error ? spec.dir : folder).string()});
}

namespace {

// A name typed as a path ("./x", "../x", "dir/x", "/x") rather than a slug: only such a name may
// name a folder outside the catalog, so that a folder named like a problem in the working directory
// (a student's) never stands in for the course's problem.
bool names_a_path(const std::string& name) {
    return name.find('/') != std::string::npos || name.rfind('.', 0) == 0;
}

std::vector<std::string> known_slugs(const fs::path& home) {
    std::vector<std::string> known;
    for (const auto& problem : list_problems(home)) known.push_back(problem.filename().string());
    return known;
}

}  // namespace

fs::path catalog_problem_dir(const fs::path& home, const std::string& slug) {
    std::error_code error;  // a name too long for a path is simply no problem's name
    const fs::path dir = home / "problems" / slug;
    if (!slug.empty() && !names_a_path(slug) && has_problem_yaml(dir)) return dir;
    const auto known = known_slugs(home);
    const auto meant = nearest_name(slug, known);
    throw usage_error(fmt::format("unknown problem '{}'{} (known: {})", slug,
                                  meant ? fmt::format(": did you mean '{}'?", *meant) : "", fmt::join(known, ", ")));
}

fs::path resolve_problem(const fs::path& home, const std::string& name) {
    std::error_code error;
    // A problem's spec named for its folder (validate problems/x/problem.yaml).
    if (fs::path(name).filename() == "problem.yaml" && fs::is_regular_file(name, error))
        return fs::path(name).parent_path().empty() ? fs::path(".") : fs::path(name).parent_path();
    const bool folder = has_problem_yaml(name);
    if (names_a_path(name) && folder) return fs::path(name);
    if (names_a_path(name) || !folder) return catalog_problem_dir(home, name);
    try {
        return catalog_problem_dir(home, name);
    } catch (const usage_error& unknown) {  // a folder here of that name: say how to name it
        throw usage_error(fmt::format("{}; for the folder here, write it as a path: ./{}", unknown.what(), name));
    }
}

namespace {

// "value" when `text` is "key value", with blanks trimmed.
std::optional<std::string> value_after(const std::string& text, const char* key) {
    if (text.rfind(key, 0) != 0) return std::nullopt;
    std::string value = text.substr(std::string(key).size());
    value.erase(0, value.find_first_not_of(' '));
    value.erase(value.find_last_not_of(" \r") + 1);
    return value;
}

// Each declared tool's marked line; an unknown tool or a tool with no marked line is an error.
std::string read_sanitize_marks(const std::vector<std::string>& lines, std::vector<sanitize_expectation>& expected) {
    const auto& tools = sanitizer_tools();
    for (auto& expectation : expected) {
        if (std::find(tools.begin(), tools.end(), expectation.tool) == tools.end())
            return fmt::format("unknown tool '{}' after 'sanitize:' (known: {})", expectation.tool,
                               fmt::join(tools, ", "));
        const std::string mark = "// <- sanitize: " + expectation.tool;
        for (std::size_t i = 0; i < lines.size() && expectation.line == 0; ++i)
            if (lines[i].find(mark) != std::string::npos) expectation.line = static_cast<int>(i + 1);
        if (expectation.line == 0)
            return fmt::format("declares 'sanitize: {}' but marks no line with '{}'", expectation.tool, mark);
    }
    return "";
}

}  // namespace

solution_file read_solution_header(const fs::path& path) {
    solution_file file;
    file.path = path;
    const auto text = read_file_text(path);  // a FIFO, a device or a dangling link is refused, not waited on
    if (!text) {
        file.header_error = kUnreadableFile;
        return file;
    }
    std::vector<std::string> lines;
    std::istringstream in(text->rfind("\xEF\xBB\xBF", 0) == 0 ? text->substr(3) : *text);  // an editor's BOM
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    // The header is the leading block of comments: // in CUDA, # in Python.
    const std::string mark = path.extension() == ".py" ? "#" : "//";
    int expect_line = 0;
    bool in_technique = false;  // the lines after "Technique:" continue it, up to a blank or another key
    const auto fail = [&file](int line, std::string message) {
        if (!file.header_error.empty()) return;
        file.header_error = std::move(message);
        file.header_error_line = line;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const int number = static_cast<int>(i + 1);
        if (line.rfind(mark, 0) != 0) break;
        const std::size_t start = line.find_first_not_of(mark == "#" ? "# " : "/ ");
        std::string text = start == std::string::npos ? "" : line.substr(start);  // a bare "//" is blank
        text.erase(text.find_last_not_of(" \r") + 1);
        const bool continues = in_technique && !text.empty();
        in_technique = false;
        if (auto value = value_after(text, "expect:")) {
            if (expect_line) fail(number, fmt::format("a second 'expect:' line (line {} declares one)", expect_line));
            expect_line = number;
            // A cheat ends as whatever the machine makes of it (wrong_answer, impossible_time,
            // runtime_error, ...): it declares only that it is not accepted.
            file.rejected = *value == "rejected";
            file.expected = file.rejected ? std::nullopt : verdict_from_string(*value);
            if (!file.expected && !file.rejected)
                fail(number, fmt::format("unknown verdict '{}' after 'expect:'", *value));
        } else if (auto role = value_after(text, "role:")) {
            file.baseline = *role == "baseline";
            file.baseline_line = number;
            if (!file.baseline) fail(number, fmt::format("unknown role '{}' after 'role:' (known: baseline)", *role));
        } else if (auto timed = value_after(text, "timed:")) {
            file.timed_unblocked = *timed == "unblocked";
            if (!file.timed_unblocked)
                fail(number, fmt::format("unknown timing '{}' after 'timed:' (known: unblocked)", *timed));
        } else if (auto tool = value_after(text, "sanitize:")) {
            file.sanitize.push_back({*tool, 0});
        } else if (auto kind = value_after(text, "cause:")) {
            file.cause = cause_kind_from_string(*kind);
            if (!file.cause)
                fail(number, fmt::format("unknown cause '{}' after 'cause:' (known: {})", *kind, cause_kind_names()));
        } else if (auto step = value_after(text, "step:")) {
            file.step_line = number;
            const bool digits = !step->empty() && step->size() < 6 &&
                                std::all_of(step->begin(), step->end(), [](char c) { return c >= '0' && c <= '9'; });
            if (digits && std::stoi(*step) >= 1)
                file.step = std::stoi(*step);
            else
                fail(number,
                     fmt::format("'step:' takes a whole number from 1 (its place on the path), not '{}'", *step));
        } else if (auto technique = value_after(text, "Technique:")) {
            file.technique = *technique;
            in_technique = true;
        } else if (continues) {
            file.technique += " " + text;
            in_technique = true;
        }
    }
    if (file.header_error.empty()) file.header_error = read_sanitize_marks(lines, file.sanitize);
    if (!file.expected && !file.rejected && file.header_error.empty())
        file.header_error = fmt::format("no '{} expect: <verdict>' line in its header", mark);
    if (file.cause && (file.rejected || (file.expected && *file.expected != verdict::wrong_answer)))
        fail(0, "'cause:' goes with 'expect: wrong_answer' only");
    if (file.timed_unblocked && file.expected != verdict::accepted)
        fail(0, "'timed:' goes with 'expect: accepted' only: it says how an accepted cheat's time is taken");
    if (file.step && file.baseline) fail(file.step_line, "'step:' is not for the baseline ('role: baseline')");
    if (file.step && file.expected != verdict::accepted)
        fail(file.step_line, "'step:' goes with 'expect: accepted' only: a step on the path is a correct solution");
    if (file.step && file.technique.empty())
        fail(file.step_line, fmt::format("a step says what it teaches: add a '{} Technique: ...' line", mark));
    return file;
}

std::string describe_header_error(const solution_file& file) {
    if (file.header_error.empty()) return "";
    return file.header_error_line > 0
               ? fmt::format("{}:{}: {}", file.path.string(), file.header_error_line, file.header_error)
               : fmt::format("{}: {}", file.path.string(), file.header_error);
}

std::string declared_verdict(const solution_file& file) {
    if (file.rejected) return "rejected";
    return file.expected ? to_string(*file.expected) : "";
}

std::vector<std::string> unjudged_sources(const fs::path& home, const std::string& slug) {
    // Source files by their extension, in any case, that list_solutions does not take: a maintainer
    // who writes bad.cpp beside the .cu files means it to be judged.
    static const std::set<std::string> sources = {".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".py"};
    std::vector<std::string> refused;
    const fs::path dir = home / "solutions" / slug;
    std::error_code error;
    if (!fs::is_directory(dir, error)) return refused;
    for (const auto& entry : fs::directory_iterator(dir, error)) {
        const std::string ext = entry.path().extension().string();
        std::string lower = ext;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (sources.count(lower) && ext != ".cu" && ext != ".py")
            refused.push_back(
                fmt::format("{}: not judged: solutions are .cu (CUDA) and .py (Triton, PyTorch) "
                            "files; rename it, or move it out of {}",
                            entry.path().string(), dir.string()));
    }
    std::sort(refused.begin(), refused.end());
    return refused;
}

std::vector<solution_file> list_solutions(const fs::path& home, const std::string& slug) {
    std::vector<solution_file> files;
    const fs::path dir = home / "solutions" / slug;
    if (!fs::is_directory(dir)) return files;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".cu" || entry.path().extension() == ".py") paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) files.push_back(read_solution_header(path));
    return files;
}

}  // namespace gpujudge
