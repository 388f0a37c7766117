// The history database on a temporary file: attempts, newest first, and personal bests.
#include "history/database.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"

#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <filesystem>

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
              std::optional<double> median_us = std::nullopt) {
    attempt a;
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

TEST_CASE("personal bests: each problem's fastest accepted timed attempt", "[history]") {
    const temp_db db("bests.db");
    history results(db.path);
    results.record_attempt(tried("reduction", "slow.cu", verdict::accepted, 40));
    results.record_attempt(tried("reduction", "fast.cu", verdict::accepted, 10));
    results.record_attempt(tried("reduction", "faster_but_wrong.cu", verdict::wrong_answer, 5));
    results.record_attempt(tried("reduction", "untimed.cu", verdict::accepted));
    results.record_attempt(tried("dot_product", "dot.cu", verdict::accepted, 20));
    results.record_attempt(tried("softmax", "broken.cu", verdict::runtime_error));
    const auto bests = results.best_attempts();
    CHECK(sources(bests) == std::vector<std::string>{"dot.cu", "fast.cu"});  // by problem; softmax has none
    CHECK(bests[1].median_us == Approx(10));
    CHECK(sources(results.best_attempts(std::string("reduction"))) == std::vector<std::string>{"fast.cu"});
}

TEST_CASE("a database from before attempts were kept gains the table and keeps its results", "[history]") {
    const temp_db db("old.db");
    {
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open(db.path.c_str(), &raw) == SQLITE_OK);
        const char* old_schema =
            "CREATE TABLE results (id INTEGER PRIMARY KEY, recorded_at TEXT DEFAULT (datetime('now')), problem TEXT,"
            " source TEXT, origin TEXT, baseline INTEGER, device_name TEXT, device_uuid TEXT, test TEXT,"
            " median_ms REAL, mean_ms REAL, min_ms REAL, samples INTEGER, gbps REAL, speedup REAL);"
            "INSERT INTO results (problem, source, origin, baseline, test, median_ms, gbps)"
            " VALUES ('reduction', 'old.cu', 'submit', 0, 'N = 100000', 0.5, 800);";
        REQUIRE(sqlite3_exec(raw, old_schema, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(raw);
    }
    history results(db.path);
    const auto kept = results.best("reduction", "N = 100000");
    REQUIRE(kept);
    CHECK(kept->source == "old.cu");
    CHECK(results.attempts().empty());
    results.record_attempt(tried("reduction", "new.cu", verdict::accepted));
    CHECK(sources(results.attempts()) == std::vector<std::string>{"new.cu"});
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
}
