#include "history/database.hpp"

#include "history/sql_statement.hpp"

#include <cmath>

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace gpujudge {

namespace {

constexpr const char* kDatabase = "history";  // names it in SQLite's errors

constexpr const char* kAttemptColumns =
    "recorded_at, problem, source, source_hash, origin, outcome, passed, total, device_name, test, median_us, gbps,"
    " percent_of_peak, problem_version";

attempt attempt_at(const sql_statement& row) {
    attempt a;
    a.recorded_at = row.text(0);
    a.problem = row.text(1);
    a.source = row.text(2);
    a.source_hash = row.text(3);
    a.origin = row.text(4);
    // A verdict this version does not know (a newer judge wrote it) reads as an internal one.
    a.outcome = parse_verdict(row.text(5));
    a.passed = row.integer(6);
    a.total = row.integer(7);
    a.device_name = row.text(8);
    a.test = row.text(9);
    a.median_us = row.maybe_number(10);
    a.gbps = row.maybe_number(11);
    a.percent_of_peak = row.maybe_number(12);
    a.problem_version = row.text(13);
    return a;
}

std::vector<attempt> all_rows(sql_statement& query) {
    std::vector<attempt> rows;
    while (query.step()) rows.push_back(attempt_at(query));
    return rows;
}

}  // namespace

std::filesystem::path default_history_path() {
    if (const char* dir = std::getenv("GPUJUDGE_DATA_DIR"); dir && *dir)
        return std::filesystem::path(dir) / "history.db";
    if (const char* dir = std::getenv("XDG_DATA_HOME"); dir && *dir)
        return std::filesystem::path(dir) / "gpujudge" / "history.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local" / "share" / "gpujudge" / "history.db";
    return std::filesystem::temp_directory_path() / "gpujudge-history.db";
}

history::history(const std::filesystem::path& path) {
    try {
        open(path);
    } catch (const std::exception& error) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error(fmt::format("{}: {}", path.string(), error.what()));
    }
}

void history::open(const std::filesystem::path& path) {
    std::filesystem::create_directories(path.parent_path());
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK)
        throw std::runtime_error(db_ ? sqlite3_errmsg(db_) : "out of memory");
    // SQLite opens a file it may not write read-only, silently; judging would fail only when it
    // records a result.
    if (sqlite3_db_readonly(db_, "main") == 1) throw std::runtime_error("the database is read-only");
    sqlite3_busy_timeout(db_, 5000);  // course staff run many judges at once
    // A damaged file can open and fail only at its first query, in the middle of a command: check
    // it whole now (it is small).
    if (const std::string check = first_value("PRAGMA quick_check"); check != "ok") throw std::runtime_error(check);
    execute(
        "CREATE TABLE IF NOT EXISTS results ("
        " id INTEGER PRIMARY KEY, recorded_at TEXT DEFAULT (datetime('now')), problem TEXT, source TEXT,"
        " origin TEXT, baseline INTEGER, device_name TEXT, device_uuid TEXT, test TEXT, median_ms REAL,"
        " mean_ms REAL, min_ms REAL, samples INTEGER, gbps REAL, speedup REAL);"
        "CREATE INDEX IF NOT EXISTS results_by_problem ON results(problem, test);"
        // device_ceilings replaced device_peaks, whose figures (a copy alone, launch latency timed) differ.
        "CREATE TABLE IF NOT EXISTS device_ceilings ("
        " device_uuid TEXT PRIMARY KEY, device_name TEXT, gbps REAL, measured_at TEXT DEFAULT (datetime('now')));"
        "CREATE TABLE IF NOT EXISTS baseline_figures ("
        " key TEXT PRIMARY KEY, figures TEXT, measured_at TEXT DEFAULT (datetime('now')));"
        // Added after the tables above: databases of earlier versions gain it here, empty.
        "CREATE TABLE IF NOT EXISTS attempts ("
        " id INTEGER PRIMARY KEY, recorded_at TEXT DEFAULT (datetime('now')), problem TEXT, source TEXT,"
        " source_hash TEXT, origin TEXT, outcome TEXT, passed INTEGER, total INTEGER, device_name TEXT, test TEXT,"
        " median_us REAL, gbps REAL, percent_of_peak REAL);"
        "CREATE INDEX IF NOT EXISTS attempts_by_problem ON attempts(problem);");
    // Added later still: earlier rows keep it NULL, and so count as no problem's bests.
    for (const char* table : {"results", "attempts"}) add_column(table, "problem_version TEXT");
}

void history::add_column(const char* table, const char* column) {
    try {
        execute(fmt::format("ALTER TABLE {} ADD COLUMN {}", table, column).c_str());
    } catch (const std::runtime_error& error) {  // there already, or added by another judge meanwhile
        if (std::string(error.what()).find("duplicate column name") == std::string::npos) throw;
    }
}

history::~history() {
    sqlite3_close(db_);
}

void history::execute(const char* sql, std::string* first_value) {
    char* error = nullptr;
    const auto keep_first = [](void* out, int, char** values, char**) {
        auto* first = static_cast<std::string*>(out);
        if (first && first->empty() && values[0]) *first = values[0];
        return 0;
    };
    if (sqlite3_exec(db_, sql, keep_first, first_value, &error) != SQLITE_OK) {
        const std::string reason = error ? error : sqlite3_errmsg(db_);
        sqlite3_free(error);
        throw std::runtime_error(reason);  // the constructor, its only caller, names the file
    }
}

std::string history::first_value(const char* sql) {
    std::string value;
    execute(sql, &value);
    return value;
}

void history::record(const timed_record& r) {
    sql_statement insert(
        kDatabase, db_,
        "INSERT INTO results (problem, source, origin, baseline, device_name, device_uuid, test, median_ms,"
        " mean_ms, min_ms, samples, gbps, speedup, problem_version) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.bind(1, r.problem).bind(2, r.source).bind(3, r.origin).bind(4, r.baseline ? 1 : 0).bind(5, r.device_name);
    insert.bind(6, r.device_uuid).bind(7, r.test).bind(8, r.median_ms).bind(9, r.mean_ms).bind(10, r.min_ms);
    insert.bind(11, r.samples).bind(12, r.gbps).bind(13, r.speedup).bind(14, r.problem_version).step();
}

void history::record_attempt(const attempt& a) {
    sql_statement insert(
        kDatabase, db_,
        "INSERT INTO attempts (problem, source, source_hash, origin, outcome, passed, total, device_name,"
        " test, median_us, gbps, percent_of_peak, problem_version) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.bind(1, a.problem).bind(2, a.source).bind(3, a.source_hash).bind(4, a.origin);
    insert.bind(5, std::string(to_string(a.outcome))).bind(6, a.passed).bind(7, a.total).bind(8, a.device_name);
    insert.bind(9, a.test).bind(10, a.median_us).bind(11, a.gbps).bind(12, a.percent_of_peak);
    insert.bind(13, a.problem_version).step();
}

std::vector<attempt> history::attempts(const std::optional<std::string>& problem) const {
    // By id, not time: two attempts within a second keep their order.
    sql_statement query(
        kDatabase, db_,
        fmt::format("SELECT {} FROM attempts WHERE ?1 IS NULL OR problem = ?1 ORDER BY id DESC", kAttemptColumns)
            .c_str());
    query.bind(1, problem);
    return all_rows(query);
}

std::optional<attempt> history::best_attempt(const std::string& problem, const std::string& version) const {
    sql_statement query(kDatabase, db_,
                        fmt::format("SELECT {} FROM attempts WHERE problem = ? AND problem_version = ? AND"
                                    " outcome = 'accepted' AND median_us IS NOT NULL ORDER BY median_us, id LIMIT 1",
                                    kAttemptColumns)
                            .c_str());
    query.bind(1, problem).bind(2, version);
    if (!query.step()) return std::nullopt;
    return attempt_at(query);
}

std::optional<personal_best> history::best(const std::string& problem, const std::string& version,
                                           const std::string& test) const {
    sql_statement query(kDatabase, db_,
                        "SELECT source, test, device_name, median_ms, gbps, recorded_at FROM results"
                        " WHERE problem = ? AND problem_version = ? AND test = ? AND baseline = 0"
                        " ORDER BY median_ms LIMIT 1");
    query.bind(1, problem).bind(2, version).bind(3, test);
    if (!query.step()) return std::nullopt;
    return personal_best{query.text(0), query.text(1), query.text(2), query.number(3), query.number(4), query.text(5)};
}

std::optional<std::string> history::baseline_figures(const std::string& key) const {
    sql_statement query(kDatabase, db_, "SELECT figures FROM baseline_figures WHERE key = ?");
    query.bind(1, key);
    if (!query.step()) return std::nullopt;
    return query.text(0);
}

void history::save_baseline_figures(const std::string& key, const std::string& figures_json) {
    sql_statement upsert(kDatabase, db_, "INSERT OR REPLACE INTO baseline_figures (key, figures) VALUES (?,?)");
    upsert.bind(1, key).bind(2, figures_json).step();
}

std::optional<double> history::device_peak(const std::string& device_uuid) const {
    sql_statement query(kDatabase, db_, "SELECT gbps FROM device_ceilings WHERE device_uuid = ?");
    query.bind(1, device_uuid);
    if (!query.step()) return std::nullopt;
    const double gbps = query.number(0);
    // Not believed when it could not have been measured (0, NaN, a figure no memory reaches): the
    // caller measures again, and the floor never rests on it.
    if (!plausible_ceiling_gbps(gbps)) return std::nullopt;
    return gbps;
}

bool plausible_ceiling_gbps(double gbps) {
    return std::isfinite(gbps) && gbps >= 1 && gbps <= 100000;
}

void history::save_device_peak(const std::string& device_uuid, const std::string& device_name, double gbps) {
    sql_statement upsert(kDatabase, db_,
                         "INSERT OR REPLACE INTO device_ceilings (device_uuid, device_name, gbps) VALUES (?,?,?)");
    upsert.bind(1, device_uuid).bind(2, device_name).bind(3, gbps).step();
}

}  // namespace gpujudge
