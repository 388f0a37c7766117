// Where problems and solutions are found, and what a solution's header declares.
#include "base/nearest_name.hpp"
#include "base/temp_dir.hpp"
#include "catalog/catalog.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace gpujudge;
namespace fs = std::filesystem;

namespace {

fs::path write_file(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

solution_file header_of(const std::string& text) {
    temp_dir dir("catalog-test");
    return read_solution_header(write_file(dir.path() / "solution.cu", text));
}

}  // namespace

TEST_CASE("a solution's header declares its verdict and its role", "[catalog]") {
    const solution_file base =
        header_of("// expect: accepted\n// role: baseline\n// Technique: a tree.\n#include <x>\n");
    CHECK(base.expected == verdict::accepted);
    CHECK(base.baseline);
    CHECK(base.header_error.empty());

    const solution_file wrong = header_of("// expect: wrong_answer\n// Mistake: skips the last element.\n");
    CHECK(wrong.expected == verdict::wrong_answer);
    CHECK_FALSE(wrong.baseline);

    SECTION("spaces, extra slashes and a CRLF line end around the value are ignored") {
        const solution_file spaced = header_of("///   expect:   time_limit_exceeded  \r\n//  role:   baseline \r\n");
        CHECK(spaced.expected == verdict::time_limit_exceeded);
        CHECK(spaced.baseline);
        CHECK(spaced.header_error.empty());
    }
    SECTION("a role other than baseline is not the baseline") {
        CHECK_FALSE(header_of("// expect: accepted\n// role: reference\n").baseline);
    }
}

TEST_CASE("a cheat declares only that it is rejected, whatever verdict the machine gives it", "[catalog]") {
    const solution_file cheat = header_of("// expect: rejected\n// Attack: rewrites the expected outputs.\n");
    CHECK(cheat.rejected);
    CHECK_FALSE(cheat.expected);
    CHECK(cheat.header_error.empty());
    CHECK(declared_verdict(cheat) == "rejected");
    const solution_file exact = header_of("// expect: wrong_answer\n");
    CHECK_FALSE(exact.rejected);
    CHECK(declared_verdict(exact) == "wrong_answer");
    CHECK(declared_verdict(header_of("// no declaration\n")).empty());
    // "rejected" is no verdict of its own: nothing else spells it, and a cause needs wrong_answer.
    CHECK(header_of("// expect: Rejected\n").header_error == "unknown verdict 'Rejected' after 'expect:'");
    CHECK(header_of("// expect: rejected\n// cause: nan\n").header_error ==
          "'cause:' goes with 'expect: wrong_answer' only");
    // The last declaration wins, as for verdicts.
    const solution_file changed = header_of("// expect: rejected\n// expect: accepted\n");
    CHECK_FALSE(changed.rejected);
    CHECK(changed.expected == verdict::accepted);
}

TEST_CASE("a time cheat declares that it is timed unblocked, and only with an accepted verdict", "[catalog]") {
    const solution_file cheat = header_of("// expect: accepted\n// timed: unblocked\n");
    CHECK(cheat.timed_unblocked);
    CHECK(cheat.header_error.empty());
    CHECK_FALSE(header_of("// expect: accepted\n").timed_unblocked);
    CHECK(header_of("// expect: accepted\n// timed: held\n").header_error ==
          "unknown timing 'held' after 'timed:' (known: unblocked)");
    CHECK(header_of("// expect: accepted\n// role: basline\n").header_error ==
          "unknown role 'basline' after 'role:' (known: baseline)");
    CHECK(header_of("// expect: accepted\n// role: baseline\n").baseline_line == 2);
    CHECK(header_of("// expect: rejected\n// timed: unblocked\n").header_error ==
          "'timed:' goes with 'expect: accepted' only: it says how an accepted cheat's time is taken");
}

TEST_CASE("a header that declares no verdict, or an unknown one, is an error that says so", "[catalog]") {
    CHECK(header_of("// expect: great\n").header_error == "unknown verdict 'great' after 'expect:'");
    CHECK(header_of("// A solution without a declaration.\n").header_error ==
          "no '// expect: <verdict>' line in its header");
    // The header is the leading block of comments: a declaration after code does not count.
    const solution_file late = header_of("#include <cuda_runtime.h>\n// expect: accepted\n");
    CHECK_FALSE(late.expected);
    CHECK(late.header_error == "no '// expect: <verdict>' line in its header");
    CHECK(header_of("").header_error == "no '// expect: <verdict>' line in its header");
    CHECK(header_of("// expect: wrong_answer\n// expect: accepted\n").header_error ==
          "a second 'expect:' line (line 1 declares one)");
    const solution_file marked = header_of("\xEF\xBB\xBF// expect: wrong_answer\n");  // a BOM from an editor
    CHECK(marked.header_error.empty());
    CHECK(marked.expected == verdict::wrong_answer);
    CHECK(read_solution_header("/nonexistent/solution.cu").header_error ==
          "cannot read the file (missing, not a regular file, or over 1 GiB)");
}

TEST_CASE("a header may declare compute-sanitizer tools, each reporting the line it marks", "[catalog]") {
    const solution_file both = header_of(
        "// expect: accepted\n// sanitize: memcheck\n// sanitize: racecheck\n__global__ void k(float* x) {\n"
        "    x[0] = x[1];  // <- sanitize: racecheck\n    x[9] = 0;  // <- sanitize: memcheck\n}\n");
    CHECK(both.header_error.empty());
    REQUIRE(both.sanitize.size() == 2);
    CHECK(both.sanitize[0].tool == "memcheck");
    CHECK(both.sanitize[0].line == 6);
    CHECK(both.sanitize[1].tool == "racecheck");
    CHECK(both.sanitize[1].line == 5);
    CHECK(header_of("// expect: accepted\n// sanitize: leakcheck\nint x;  // <- sanitize: leakcheck\n").header_error ==
          "unknown tool 'leakcheck' after 'sanitize:' (known: memcheck, racecheck, synccheck, initcheck)");
    CHECK(header_of("// expect: accepted\n// sanitize: racecheck\nint x;  // <- sanitize: memcheck\n").header_error ==
          "declares 'sanitize: racecheck' but marks no line with '// <- sanitize: racecheck'");
}

TEST_CASE("list_solutions reads the .cu files of solutions/<slug>, sorted", "[catalog]") {
    temp_dir home("catalog-test");
    write_file(home.path() / "solutions/scan/b.cu", "// expect: wrong_answer\n");
    write_file(home.path() / "solutions/scan/a.cu", "// expect: accepted\n// role: baseline\n");
    write_file(home.path() / "solutions/scan/notes.md", "// expect: accepted\n");
    write_file(home.path() / "solutions/other/c.cu", "// expect: accepted\n");
    const std::vector<solution_file> files = list_solutions(home.path(), "scan");
    REQUIRE(files.size() == 2);
    CHECK(files[0].path == home.path() / "solutions/scan/a.cu");
    CHECK(files[0].baseline);
    CHECK(files[1].path == home.path() / "solutions/scan/b.cu");
    CHECK(files[1].expected == verdict::wrong_answer);
    CHECK(list_solutions(home.path(), "missing").empty());
}

TEST_CASE("the default home is the nearest folder whose problems/ holds a problem", "[catalog]") {
    const temp_dir course("course");
    std::filesystem::create_directories(course.path() / "problems" / "tiny_sum");
    std::filesystem::create_directories(course.path() / "students" / "problems");  // holds none
    std::ofstream(course.path() / "problems" / "tiny_sum" / "problem.yaml") << "title: x\n";
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(course.path() / "students");
    const std::filesystem::path found = find_home();
    std::filesystem::current_path(before);
    CHECK(found == std::filesystem::canonical(course.path()));  // no problems/README.md needed
}

TEST_CASE("problems are found by slug or by folder, an unknown one names the known slugs", "[catalog]") {
    temp_dir home("catalog-test");
    write_file(home.path() / "problems/scan/problem.yaml", "");
    write_file(home.path() / "problems/add/problem.yaml", "");
    fs::create_directories(home.path() / "problems/draft");  // no problem.yaml: not a problem
    const std::vector<fs::path> problems = list_problems(home.path());
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].filename() == "add");
    CHECK(problems[1].filename() == "scan");

    CHECK(resolve_problem(home.path(), "scan") == home.path() / "problems/scan");
    const fs::path elsewhere = write_file(home.path() / "elsewhere/mine/problem.yaml", "").parent_path();
    CHECK(resolve_problem(home.path(), elsewhere.string()) == elsewhere);
    // Its spec names the folder too: validate problems/scan/problem.yaml.
    CHECK(resolve_problem(home.path(), (elsewhere / "problem.yaml").string()) == elsewhere);
    try {
        resolve_problem(home.path(), "draft");
        FAIL("resolve_problem accepted a folder without problem.yaml");
    } catch (const std::invalid_argument& error) {
        CHECK(std::string(error.what()) == "unknown problem 'draft' (known: add, scan)");
    }
    try {
        resolve_problem(home.path(), "sacn");
        FAIL("resolve_problem accepted a mistyped slug");
    } catch (const std::invalid_argument& error) {
        CHECK(std::string(error.what()) == "unknown problem 'sacn': did you mean 'scan'? (known: add, scan)");
    }
    // A home without problems/ is a mistake to name, not an empty catalog.
    const fs::path nowhere = home.path() / "nonexistent";
    try {
        list_problems(nowhere);
        FAIL("list_problems accepted a home without problems/");
    } catch (const std::invalid_argument& error) {
        CHECK(std::string(error.what()) ==
              nowhere.string() + ": no problems/ folder here (the home is set by --home or GPUJUDGE_HOME)");
    }
}

TEST_CASE("a bare slug is the catalog's problem, never a folder of that name in the working directory", "[catalog]") {
    temp_dir home("catalog-slug");
    write_file(home.path() / "problems/scan/problem.yaml", "");
    temp_dir here("catalog-here");  // a student's checkout, say
    write_file(here.path() / "scan/problem.yaml", "");
    write_file(here.path() / "mine/problem.yaml", "");
    const fs::path before = fs::current_path();
    fs::current_path(here.path());
    CHECK(resolve_problem(home.path(), "scan") == home.path() / "problems/scan");
    CHECK(resolve_problem(home.path(), "./scan") == "./scan");  // written as a path: the folder
    CHECK(catalog_problem_dir(home.path(), "scan") == home.path() / "problems/scan");
    std::string bare, dotted;
    try {
        resolve_problem(home.path(), "mine");
    } catch (const std::invalid_argument& error) {
        bare = error.what();
    }
    try {
        catalog_problem_dir(home.path(), "./mine");  // grade: a student's file name is never a path
    } catch (const std::invalid_argument& error) {
        dotted = error.what();
    }
    fs::current_path(before);
    CHECK(bare == "unknown problem 'mine' (known: scan); for the folder here, write it as a path: ./mine");
    CHECK(dotted == "unknown problem './mine' (known: scan)");
}

TEST_CASE("a wrong solution may declare the likely cause its wrong answer must show", "[catalog][cause]") {
    const solution_file declared = header_of("// expect: wrong_answer\n// cause: dropped_tail\n// Mistake: ...\n");
    CHECK(declared.cause == cause_kind::dropped_tail);
    CHECK(declared.header_error.empty());
    CHECK_FALSE(header_of("// expect: wrong_answer\n").cause);
    CHECK(header_of("// expect: wrong_answer\n// cause: overflow\n").header_error ==
          "unknown cause 'overflow' after 'cause:' (known: never_written, infinity, nan, dropped_tail, one_block, "
          "float32_sum, half_precision, off_by_one)");
    CHECK(header_of("// expect: accepted\n// cause: nan\n").header_error ==
          "'cause:' goes with 'expect: wrong_answer' only");
}

TEST_CASE("the name a mistyped one meant: another case, a letter off, two swapped, none when two are as near",
          "[catalog]") {
    const std::vector<std::string> slugs{"reduction", "softmax", "subarray_sum", "subarray_sum_2d", "dot_product"};
    CHECK(nearest_name("Reduction", slugs) == std::optional<std::string>("reduction"));
    CHECK(nearest_name("reductoin", slugs) == std::optional<std::string>("reduction"));
    CHECK(nearest_name("sftmax", slugs) == std::optional<std::string>("softmax"));
    CHECK(nearest_name("dot_products", slugs) == std::optional<std::string>("dot_product"));
    CHECK(nearest_name("subarray_sum_3d", slugs) == std::optional<std::string>("subarray_sum_2d"));
    CHECK(nearest_name("reduction", slugs) == std::nullopt);  // no mistake
    CHECK(nearest_name("histogram", slugs) == std::nullopt);  // too far from all
    CHECK(nearest_name("ab", {"ac", "ad"}) == std::nullopt);  // two as near: no guess
    CHECK(nearest_name(".CU", {".cu", ".py"}) == std::optional<std::string>(".cu"));
}
