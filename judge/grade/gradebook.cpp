#include "grade/gradebook.hpp"

#include "verdict.hpp"

#include <fmt/format.h>

#include <ctime>
#include <stdexcept>

namespace gpujudge {

namespace {

// A prepared statement, finalised when it goes.
class query {
public:
    query(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            throw std::runtime_error(fmt::format("gradebook: {}", sqlite3_errmsg(db)));
    }
    ~query() { sqlite3_finalize(stmt_); }
    query(const query&) = delete;
    query& operator=(const query&) = delete;

    void bind(int index, const std::string& value) {
        sqlite3_bind_text(stmt_, index, value.c_str(), -1, SQLITE_TRANSIENT);
    }
    void bind(int index, double value) { sqlite3_bind_double(stmt_, index, value); }
    void bind(int index, int value) { sqlite3_bind_int(stmt_, index, value); }
    void bind(int index, const std::optional<double>& value) {
        if (value)
            bind(index, *value);
        else
            sqlite3_bind_null(stmt_, index);
    }
    bool step() {
        const int status = sqlite3_step(stmt_);
        if (status != SQLITE_ROW && status != SQLITE_DONE)
            throw std::runtime_error(fmt::format("gradebook: {}", sqlite3_errmsg(db_)));
        return status == SQLITE_ROW;
    }
    std::string text(int column) const {
        const unsigned char* value = sqlite3_column_text(stmt_, column);
        return value ? reinterpret_cast<const char*>(value) : "";
    }
    std::optional<double> number(int column) const {
        if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
        return sqlite3_column_double(stmt_, column);
    }
    int integer(int column) const { return sqlite3_column_int(stmt_, column); }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

constexpr const char* kColumns =
    "file, student, problem, status, passed, total, median_us, gbps, percent_of_ceiling, speedup, ceiling_gbps,"
    " source_hash, spec_hash, gpu, judged_at, wall_s, reason";

grade_row row_at(const query& q) {
    grade_row row;
    row.file = q.text(0);
    row.student = q.text(1);
    row.problem = q.text(2);
    row.status = q.text(3);
    row.passed = q.integer(4);
    row.total = q.integer(5);
    row.median_us = q.number(6);
    row.gbps = q.number(7);
    row.percent_of_ceiling = q.number(8);
    row.speedup = q.number(9);
    row.ceiling_gbps = q.number(10);
    row.source_hash = q.text(11);
    row.spec_hash = q.text(12);
    row.gpu = q.text(13);
    row.judged_at = q.text(14);
    row.wall_s = q.number(15).value_or(0);
    row.reason = q.text(16);
    return row;
}

void execute(sqlite3* db, const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw std::runtime_error(fmt::format("gradebook: {}", text));
    }
}

}  // namespace

bool judged_status(const std::string& status) {
    const auto v = verdict_from_string(status);
    return v && *v != verdict::skipped && *v != verdict::no_device;
}

std::string status_group(const std::string& status) {
    if (status == "accepted") return "accepted";
    if (status == "wrong_answer") return "wrong";
    if (status == grade_status::not_a_source || status == grade_status::empty_folder ||
        status == grade_status::unknown_problem)
        return "";
    return "failed";
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &parts);
    return text;
}

gradebook::gradebook(const std::filesystem::path& path) {
    std::error_code ignored;
    std::filesystem::create_directories(path.parent_path(), ignored);
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw std::runtime_error(fmt::format("{}: cannot open the gradebook: {}", path.string(), why));
    }
    sqlite3_busy_timeout(db_, 10000);  // the workers of one grade, and `--collect`, write it in turn
    try {
        execute(db_,
                "CREATE TABLE IF NOT EXISTS rows (file TEXT PRIMARY KEY, student TEXT, problem TEXT, status TEXT,"
                " passed INTEGER, total INTEGER, median_us REAL, gbps REAL, percent_of_ceiling REAL, speedup REAL,"
                " ceiling_gbps REAL, source_hash TEXT, spec_hash TEXT, gpu TEXT, judged_at TEXT, wall_s REAL,"
                " reason TEXT)");
    } catch (const std::exception& error) {
        sqlite3_close(db_);
        throw std::runtime_error(fmt::format("{}: {}", path.string(), error.what()));
    }
}

gradebook::~gradebook() {
    sqlite3_close(db_);
}

void gradebook::store(const grade_row& row) {
    const std::string sql =
        fmt::format("INSERT OR REPLACE INTO rows ({}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", kColumns);
    query q(db_, sql.c_str());
    q.bind(1, row.file);
    q.bind(2, row.student);
    q.bind(3, row.problem);
    q.bind(4, row.status);
    q.bind(5, row.passed);
    q.bind(6, row.total);
    q.bind(7, row.median_us);
    q.bind(8, row.gbps);
    q.bind(9, row.percent_of_ceiling);
    q.bind(10, row.speedup);
    q.bind(11, row.ceiling_gbps);
    q.bind(12, row.source_hash);
    q.bind(13, row.spec_hash);
    q.bind(14, row.gpu);
    q.bind(15, row.judged_at);
    q.bind(16, row.wall_s);
    q.bind(17, row.reason);
    q.step();  // one statement: SQLite's own transaction
}

void gradebook::remove(const std::string& file) {
    query q(db_, "DELETE FROM rows WHERE file = ?");
    q.bind(1, file);
    q.step();
}

std::optional<grade_row> gradebook::row(const std::string& file) const {
    const std::string sql = fmt::format("SELECT {} FROM rows WHERE file = ?", kColumns);
    query q(db_, sql.c_str());
    q.bind(1, file);
    if (!q.step()) return std::nullopt;
    return row_at(q);
}

std::optional<grade_row> gradebook::judged_like(const std::string& source_hash, const std::string& spec_hash,
                                                const std::string& gpu) const {
    const std::string sql = fmt::format(
        "SELECT {} FROM rows WHERE source_hash = ? AND spec_hash = ? AND gpu = ? ORDER BY judged_at", kColumns);
    query q(db_, sql.c_str());
    q.bind(1, source_hash);
    q.bind(2, spec_hash);
    q.bind(3, gpu);
    while (q.step()) {
        grade_row found = row_at(q);
        if (judged_status(found.status)) return found;
    }
    return std::nullopt;
}

std::vector<grade_row> gradebook::rows() const {
    const std::string sql = fmt::format("SELECT {} FROM rows ORDER BY student, file", kColumns);
    query q(db_, sql.c_str());
    std::vector<grade_row> all;
    while (q.step()) all.push_back(row_at(q));
    return all;
}

std::vector<std::string> gradebook::gpus() const {
    query q(db_, "SELECT DISTINCT gpu FROM rows WHERE gpu <> '' ORDER BY gpu");
    std::vector<std::string> names;
    while (q.step()) names.push_back(q.text(0));
    return names;
}

}  // namespace gpujudge
