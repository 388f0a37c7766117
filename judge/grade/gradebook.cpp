#include "grade/gradebook.hpp"

#include "base/file_text.hpp"
#include "base/user_errors.hpp"
#include "checks/verdict.hpp"
#include "history/database.hpp"
#include "history/sql_statement.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <ctime>
#include <stdexcept>

namespace gpujudge {

namespace {

constexpr const char* kDatabase = "gradebook";  // names it in SQLite's errors

constexpr const char* kColumns =
    "file, student, problem, status, passed, total, median_us, gbps, percent_of_ceiling, speedup, ceiling_gbps,"
    " source_hash, spec_hash, gpu, judged_at, wall_s, reason, gpu_index, feedback";
// Columns later versions added, each read as NULL from a gradebook of a version before it (serve reads
// without migrating).
constexpr const char* kLaterColumns[] = {"gpu_index", "feedback"};

grade_row row_at(const sql_statement& q) {
    grade_row row;
    row.file = q.text(0);
    row.student = q.text(1);
    row.problem = q.text(2);
    row.status = q.text(3);
    row.passed = q.integer(4);
    row.total = q.integer(5);
    row.median_us = q.maybe_number(6);
    row.gbps = q.maybe_number(7);
    row.percent_of_ceiling = q.maybe_number(8);
    row.speedup = q.maybe_number(9);
    row.ceiling_gbps = q.maybe_number(10);
    row.source_hash = q.text(11);
    row.spec_hash = q.text(12);
    row.gpu = q.text(13);
    row.judged_at = q.text(14);
    row.wall_s = q.maybe_number(15).value_or(0);
    row.reason = q.text(16);
    row.gpu_index = q.maybe_integer(17);
    row.feedback = q.text(18);
    return row;
}

void execute(sqlite3* db, const char* sql) {
    if (const int status = sqlite3_exec(db, sql, nullptr, nullptr, nullptr); status != SQLITE_OK)
        throw_sql_error("gradebook", db, status);
}

// Whether the table `rows` has the column `name`.
bool has_column(sqlite3* db, const char* name) {
    sql_statement columns(kDatabase, db, "SELECT name FROM pragma_table_info('rows')");
    while (columns.step())
        if (columns.text(0) == name) return true;
    return false;
}

bool has_rows_table(sqlite3* db) {
    sql_statement tables(kDatabase, db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rows'");
    return tables.step();
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
        status == grade_status::unknown_problem || status == grade_status::invalid_problem)
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

namespace {

std::filesystem::path last_grade_note() {
    return default_history_path().parent_path() / "last-grade";
}

}  // namespace

std::filesystem::path gradebook_path(const std::filesystem::path& run_or_file) {
    std::error_code ignored;
    return std::filesystem::is_directory(run_or_file, ignored) ? run_or_file / "gradebook.db" : run_or_file;
}

void remember_grade_run(const std::filesystem::path& run) {
    try {
        std::filesystem::create_directories(last_grade_note().parent_path());
        write_file_atomically(last_grade_note(), std::filesystem::absolute(run).string() + "\n");
    } catch (const std::exception& error) {
        spdlog::warn("cannot note the grade's run folder for serve: {}", error.what());
    }
}

std::optional<std::filesystem::path> remembered_grade_run() {
    auto text = read_file_text(last_grade_note());
    if (!text) return std::nullopt;
    while (!text->empty() && (text->back() == '\n' || text->back() == '\r')) text->pop_back();
    if (text->empty()) return std::nullopt;
    return std::filesystem::path(*text);
}

grade_row with_kept_times(const gradebook& book, grade_row row) {
    if (row.status != "accepted" || row.median_us) return row;
    const auto before = book.row(row.file);
    if (!before || before->status != "accepted" || !before->median_us || before->source_hash != row.source_hash ||
        before->spec_hash != row.spec_hash || before->gpu != row.gpu)
        return row;
    row.median_us = before->median_us;
    row.gbps = before->gbps;
    row.percent_of_ceiling = before->percent_of_ceiling;
    row.speedup = before->speedup;
    row.ceiling_gbps = before->ceiling_gbps;
    return row;
}

gradebook::gradebook(const std::filesystem::path& path, access mode) : columns_(kColumns) {
    const bool reading = mode == access::read;
    std::error_code ignored;
    if (reading && !std::filesystem::is_regular_file(path, ignored))
        throw std::runtime_error(fmt::format("{}: no gradebook there (gpujudge grade writes one)", path.string()));
    if (!reading) std::filesystem::create_directories(path.parent_path(), ignored);
    const int flags = reading ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw std::runtime_error(fmt::format("{}: cannot open the gradebook: {}", path.string(), why));
    }
    sqlite3_busy_timeout(db_, 10000);  // the workers of one grade, and `--collect`, write it in turn
    try {
        if (reading) {
            if (!has_rows_table(db_)) throw std::runtime_error("not a gradebook (it has no table of rows)");
            for (const char* column : kLaterColumns)
                if (!has_column(db_, column))
                    columns_.replace(columns_.find(column), std::string(column).size(), "NULL");
        } else {
            execute(db_,
                    "CREATE TABLE IF NOT EXISTS rows (file TEXT PRIMARY KEY, student TEXT, problem TEXT, status TEXT,"
                    " passed INTEGER, total INTEGER, median_us REAL, gbps REAL, percent_of_ceiling REAL, speedup REAL,"
                    " ceiling_gbps REAL, source_hash TEXT, spec_hash TEXT, gpu TEXT, judged_at TEXT, wall_s REAL,"
                    " reason TEXT, gpu_index INTEGER, feedback TEXT)");
            // Gradebooks of earlier versions gain the columns, empty: their rows' GPU numbers and feedback
            // are unknown.
            if (!has_column(db_, "gpu_index")) execute(db_, "ALTER TABLE rows ADD COLUMN gpu_index INTEGER");
            if (!has_column(db_, "feedback")) execute(db_, "ALTER TABLE rows ADD COLUMN feedback TEXT");
        }
    } catch (const std::exception& error) {
        sqlite3_close(db_);
        const std::string message = fmt::format("{}: {}", path.string(), error.what());
        if (machine_error(error)) throw environment_error(message);  // a full disk stays the machine's
        throw std::runtime_error(message);
    }
}

gradebook::~gradebook() {
    sqlite3_close(db_);
}

void gradebook::store(const grade_row& row) {
    const std::string sql =
        fmt::format("INSERT OR REPLACE INTO rows ({}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", kColumns);
    sql_statement q(kDatabase, db_, sql);
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
    q.bind(18, row.gpu_index);
    q.bind(19, row.feedback);
    q.step();  // one statement: SQLite's own transaction
}

void gradebook::remove(const std::string& file) {
    sql_statement q(kDatabase, db_, "DELETE FROM rows WHERE file = ?");
    q.bind(1, file);
    q.step();
}

std::optional<grade_row> gradebook::row(const std::string& file) const {
    const std::string sql = fmt::format("SELECT {} FROM rows WHERE file = ?", columns_);
    sql_statement q(kDatabase, db_, sql);
    q.bind(1, file);
    if (!q.step()) return std::nullopt;
    return row_at(q);
}

std::optional<grade_row> gradebook::judged_like(const std::string& source_hash, const std::string& spec_hash,
                                                const std::string& gpu) const {
    const std::string sql = fmt::format(
        "SELECT {} FROM rows WHERE source_hash = ? AND spec_hash = ? AND gpu = ? ORDER BY judged_at", columns_);
    sql_statement q(kDatabase, db_, sql);
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
    const std::string sql = fmt::format("SELECT {} FROM rows ORDER BY student, file", columns_);
    sql_statement q(kDatabase, db_, sql);
    std::vector<grade_row> all;
    while (q.step()) all.push_back(row_at(q));
    return all;
}

std::vector<std::string> gradebook::gpus() const {
    sql_statement q(kDatabase, db_, "SELECT DISTINCT gpu FROM rows WHERE gpu <> '' ORDER BY gpu");
    std::vector<std::string> names;
    while (q.step()) names.push_back(q.text(0));
    return names;
}

}  // namespace gpujudge
