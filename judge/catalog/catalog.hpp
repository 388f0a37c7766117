#pragma once
// Where problems and solutions live, and what each shipped solution declares about itself.
#include "checks/likely_cause.hpp"
#include "checks/verdict.hpp"
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// The folder holding problems/ and solutions/: $GPUJUDGE_HOME, else the nearest parent of the
// working directory that has problems/, else the source tree gpujudge was built from.
std::filesystem::path find_home();

// A slug under <home>/problems, or a folder when `name` is written as a path (holds '/' or starts
// with '.'): a bare slug never means a folder of the working directory. Throws usage_error naming
// the known slugs when there is none.
std::filesystem::path resolve_problem(const std::filesystem::path& home, const std::string& name);

// <home>/problems/<slug> and nothing else: for slugs that come from others' file names (grade).
std::filesystem::path catalog_problem_dir(const std::filesystem::path& home, const std::string& slug);

// Every problem folder under <home>/problems, sorted by slug; usage_error when <home>/problems is
// not a folder.
std::vector<std::filesystem::path> list_problems(const std::filesystem::path& home);

// The catalog's problems that load (a broken one is validate's to report), sorted by slug.
std::vector<problem_spec> load_catalog(const std::filesystem::path& home);

// Which version of the problem a result is timed on, for the history: a hash of what decides its tests
// and answers (problem.yaml, reference.cpp) and of its folder, so that an edited copy, another home's
// problem of that slug or a private folder never sets a best of this one.
std::string problem_version(const problem_spec& spec);

// "// sanitize: <tool>" in a header: the tool must report the line marked "// <- sanitize: <tool>".
struct sanitize_expectation {
    std::string tool;
    int line = 0;
};

struct solution_file {
    std::filesystem::path path;
    std::optional<verdict> expected;  // from "// expect: <verdict>"
    bool rejected = false;            // "// expect: rejected": any verdict but accepted (an attack on the judge)
    std::optional<cause_kind> cause;  // from "// cause: <kind>": the likely cause its wrong answer must show
    bool baseline = false;            // "// role: baseline"
    int baseline_line = 0;            // the header's line that declares it
    // "// timed: unblocked": a time cheat whose work hides from the held-back events; accepted, but no
    // benchmark of it may be timed by those events alone (held back, on the events' clock, with no
    // charge for solve's host time)
    bool timed_unblocked = false;
    std::vector<sanitize_expectation> sanitize;
    std::optional<int> step;    // "// step: N": its place on the problem's path, naive (1) to fastest
    int step_line = 0;          // the header's line that declares it
    std::string technique;      // "// Technique: ...", its lines joined: what the solution teaches
    std::string header_error;   // set when the header is missing or unreadable
    int header_error_line = 0;  // the line it is about, where it is about one
};

// What the header declares: "rejected", a verdict's name, or "" when it declares nothing.
std::string declared_verdict(const solution_file& file);

// The header's error as validate prints it: "path:line: message", or "path: message".
std::string describe_header_error(const solution_file& file);

// The .cu and .py files of solutions/<slug>/, sorted, with their declared expectations.
std::vector<solution_file> list_solutions(const std::filesystem::path& home, const std::string& slug);
solution_file read_solution_header(const std::filesystem::path& path);

// "path: not judged: ..." for each source file in solutions/<slug>/ that list_solutions leaves out
// (bad.cpp, KERNEL.CU), sorted: validate refuses them rather than count fewer solutions.
std::vector<std::string> unjudged_sources(const std::filesystem::path& home, const std::string& slug);

}  // namespace gpujudge
