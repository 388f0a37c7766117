// The history database on a temporary file: attempts, newest first, and personal bests.
#include "catalog/catalog.hpp"
#include "history/database.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"

#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

// A database file of its own, gone before and after the test.
struct temp_db {
    std::filesystem::path path;
    explicit temp_db(const std::string& name) : path(std::filesystem::path(GPUJUDGE_TEST_CACHE) / name) {
        std::filesystem::remove(path);
    }
    ~temp_db() { std::filesystem::remove(path); }
};

attempt tried(const std::string& problem, const std::string& source, verdict outcome,
              std::optional<double> median_us = std::nullopt, const std::string& version = "v1") {
    attempt a;
    a.problem_version = version;
    a.problem = problem;
    a.source = source;
    a.source_hash = "hash-of-" + source;
    a.origin = median_us ? "submit" : "run";
    a.outcome = outcome;
    a.passed = outcome == verdict::accepted ? 4 : 1;
    a.total = 4;
    a.median_us = median_us;
    if (median_us) a.percent_of_peak = 1000 / *median_us;
    return a;
}

std::vector<std::string> sources(const std::vector<attempt>& attempts) {
    std::vector<std::string> out;
    for (const auto& a : attempts) out.push_back(a.source);
    return out;
}

}  // namespace

TEST_CASE("the history lists every attempt, newest first, with what was recorded", "[history]") {
    const temp_db db("attempts.db");
    history results(db.path);
    CHECK(results.attempts().empty());
    results.record_attempt(tried("reduction", "a.cu", verdict::wrong_answer));
    results.record_attempt(tried("dot_product", "b.cu", verdict::accepted, 12.5));
    results.record_attempt(tried("reduction", "c.cu", verdict::compile_error));
    const auto all = results.attempts();
    CHECK(sources(all) == std::vector<std::string>{"c.cu", "b.cu", "a.cu"});
    const attempt& b = all[1];
    CHECK(b.problem == "dot_product");
    CHECK(b.source_hash == "hash-of-b.cu");
    CHECK(b.origin == "submit");
    CHECK(b.outcome == verdict::accepted);
    CHECK(b.passed == 4);
    CHECK(b.total == 4);
    CHECK(b.median_us == Approx(12.5));
    CHECK(b.percent_of_peak == Approx(80));
    CHECK(b.recorded_at.size() == std::string("2024-01-01 00:00:00").size());
    CHECK_FALSE(all[0].median_us);  // untimed attempts keep no figures
    CHECK_FALSE(all[0].percent_of_peak);
    CHECK(sources(results.attempts(std::string("reduction"))) == std::vector<std::string>{"c.cu", "a.cu"});
}

TEST_CASE("personal bests: each problem's fastest accepted timed attempt on that version of it", "[history]") {
    const temp_db db("bests.db");
    history results(db.path);
    results.record_attempt(tried("reduction", "slow.cu", verdict::accepted, 40));
    results.record_attempt(tried("reduction", "fast.cu", verdict::accepted, 10));
    results.record_attempt(tried("reduction", "faster_but_wrong.cu", verdict::wrong_answer, 5));
    results.record_attempt(tried("reduction", "untimed.cu", verdict::accepted));
    // An edited copy of the problem (smaller data), or another folder's: not the same problem.
    results.record_attempt(tried("reduction", "on_a_copy.cu", verdict::accepted, 1, "v0"));
    results.record_attempt(tried("dot_product", "dot.cu", verdict::accepted, 20));
    results.record_attempt(tried("softmax", "broken.cu", verdict::runtime_error));
    REQUIRE(results.best_attempt("reduction", "v1"));
    CHECK(results.best_attempt("reduction", "v1")->source == "fast.cu");
    CHECK(results.best_attempt("reduction", "v1")->median_us == Approx(10));
    CHECK(results.best_attempt("reduction", "v0")->source == "on_a_copy.cu");
    CHECK(results.best_attempt("dot_product", "v1")->source == "dot.cu");
    CHECK_FALSE(results.best_attempt("softmax", "v1"));
    CHECK_FALSE(results.best_attempt("dot_product", "v2"));         // the problem changed since: no best yet
    CHECK(results.attempts(std::string("reduction")).size() == 5);  // every version's, as history
}

TEST_CASE("timed results count as bests only on the problem's version they were timed on", "[history]") {
    const temp_db db("timed-bests.db");
    history results(db.path);
    results.record({"reduction", "copy.cu", "submit", false, "gpu", "uuid", "N = 1M", 0.001, 0, 0, 1, 1, 0, "v0"});
    results.record({"reduction", "real.cu", "submit", false, "gpu", "uuid", "N = 1M", 1.3, 0, 0, 1, 1, 0, "v1"});
    REQUIRE(results.best("reduction", "v1", "N = 1M"));
    CHECK(results.best("reduction", "v1", "N = 1M")->source == "real.cu");
    CHECK_FALSE(results.best("reduction", "v2", "N = 1M"));
}

TEST_CASE("a database from before versions were kept gains them, keeps its rows, counts them as no best", "[history]") {
    const temp_db db("old.db");
    {
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open(db.path.c_str(), &raw) == SQLITE_OK);
        const char* old_schema =
            "CREATE TABLE results (id INTEGER PRIMARY KEY, recorded_at TEXT DEFAULT (datetime('now')), problem TEXT,"
            " source TEXT, origin TEXT, baseline INTEGER, device_name TEXT, device_uuid TEXT, test TEXT,"
            " median_ms REAL, mean_ms REAL, min_ms REAL, samples INTEGER, gbps REAL, speedup REAL);"
            "INSERT INTO results (problem, source, origin, baseline, test, median_ms, gbps)"
            " VALUES ('reduction', 'old.cu', 'submit', 0, 'N = 100000', 0.5, 800);"
            "CREATE TABLE attempts (id INTEGER PRIMARY KEY, recorded_at TEXT DEFAULT (datetime('now')),"
            " problem TEXT, source TEXT, source_hash TEXT, origin TEXT, outcome TEXT, passed INTEGER, total INTEGER,"
            " device_name TEXT, test TEXT, median_us REAL, gbps REAL, percent_of_peak REAL);"
            "INSERT INTO attempts (problem, source, outcome, passed, total, test, median_us)"
            " VALUES ('reduction', 'old.cu', 'accepted', 4, 4, 'N = 100000', 500);";
        REQUIRE(sqlite3_exec(raw, old_schema, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(raw);
    }
    history results(db.path);
    // Which problem they were timed on is not known: listed, never a best.
    CHECK_FALSE(results.best("reduction", "v1", "N = 100000"));
    CHECK_FALSE(results.best_attempt("reduction", "v1"));
    REQUIRE(results.attempts().size() == 1);
    CHECK(results.attempts()[0].source == "old.cu");
    CHECK(results.attempts()[0].problem_version.empty());
    results.record_attempt(tried("reduction", "new.cu", verdict::accepted, 600));
    CHECK(sources(results.attempts()) == std::vector<std::string>{"new.cu", "old.cu"});
    CHECK(results.best_attempt("reduction", "v1")->source == "new.cu");
    history again(db.path);  // opened again: the columns are there already
    CHECK(again.attempts().size() == 2);
}

TEST_CASE("a problem's version changes with its problem.yaml, its reference and its folder, not its prose",
          "[history]") {
    const std::filesystem::path root = std::filesystem::path(GPUJUDGE_TEST_CACHE) / "versions";
    std::filesystem::remove_all(root);
    const std::filesystem::path original = GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum";
    const auto copy_to = [&](const std::string& home) {
        const auto dir = root / home / "tiny_sum";
        std::filesystem::create_directories(dir);
        std::filesystem::copy(original, dir, std::filesystem::copy_options::recursive);
        return dir;
    };
    const std::string version = problem_version(load_problem(original));
    const auto elsewhere = copy_to("a");
    const std::string a = problem_version(load_problem(elsewhere));
    CHECK(a != version);  // another home's copy, the same bytes
    std::ofstream(elsewhere / "statement.md", std::ios::app) << "more prose\n";
    CHECK(problem_version(load_problem(elsewhere)) == a);
    std::ofstream(elsewhere / "reference.cpp", std::ios::app) << "// changed\n";
    CHECK(problem_version(load_problem(elsewhere)) != a);
    const std::string b = problem_version(load_problem(elsewhere));
    std::ofstream(elsewhere / "problem.yaml", std::ios::app) << "# changed\n";
    CHECK(problem_version(load_problem(elsewhere)) != b);
    std::filesystem::remove_all(root);
}

TEST_CASE("judging keeps the attempt when asked: file, content hash, verdict, tests passed", "[history]") {
    const temp_db db("judged.db");
    history results(db.path);
    become_subreaper();
    judge_context context;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    context.results = &results;
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    judge_options options;
    options.tests = select_tests(spec, {test_kind::example, test_kind::functional});
    options.timed = false;
    options.origin = "run";
    const std::string source = GPUJUDGE_TEST_FIXTURES "/host_solutions/off_by_one.cpp";
    judge_submission(spec, source, options, context);
    CHECK(results.attempts().empty());  // validate and bench judge too, and are not attempts
    options.keep_attempt = true;
    judge_submission(spec, source, options, context);
    const auto all = results.attempts();
    REQUIRE(all.size() == 1);
    CHECK(all[0].problem == "tiny_sum");
    CHECK(all[0].source == source);
    CHECK(all[0].source_hash.size() == 64);  // SHA-256
    CHECK(all[0].origin == "run");
    CHECK(all[0].outcome == verdict::wrong_answer);
    CHECK(all[0].passed == 0);  // the example fails first, the rest are skipped
    CHECK(all[0].total == 3);
    CHECK(all[0].device_name == "host");
    CHECK(all[0].problem_version == problem_version(spec));
}
