#include "history/sql_statement.hpp"

#include "base/user_errors.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gpujudge {

void throw_sql_error(const char* what, sqlite3* db, int status) {
    const std::string message = fmt::format("{}: {}", what, sqlite3_errmsg(db));
    switch (status & 0xff) {  // the primary code of an extended one
        case SQLITE_FULL:
        case SQLITE_IOERR:
        case SQLITE_CANTOPEN:
        case SQLITE_READONLY:
        case SQLITE_PERM:
            throw environment_error(
                message +
                " (a full disk or quota, or a file that cannot be written: a fault of the machine, not of "
                "gpujudge)");
        default:
            throw std::runtime_error(message);
    }
}

sql_statement::sql_statement(const char* what, sqlite3* db, const std::string& sql) : db_(db), what_(what) {
    if (const int status = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr); status != SQLITE_OK)
        throw_sql_error(what_, db, status);
}

sql_statement::~sql_statement() {
    sqlite3_finalize(stmt_);
}

sql_statement& sql_statement::bind(int index, const std::string& value) {
    sqlite3_bind_text(stmt_, index, value.c_str(), -1, SQLITE_TRANSIENT);
    return *this;
}

sql_statement& sql_statement::bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
}

sql_statement& sql_statement::bind(int index, int value) {
    sqlite3_bind_int(stmt_, index, value);
    return *this;
}

sql_statement& sql_statement::bind_null(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}

bool sql_statement::step() {
    const int status = sqlite3_step(stmt_);
    if (status != SQLITE_ROW && status != SQLITE_DONE) throw_sql_error(what_, db_, status);
    return status == SQLITE_ROW;
}

std::string sql_statement::text(int column) const {
    const unsigned char* value = sqlite3_column_text(stmt_, column);
    return value ? reinterpret_cast<const char*>(value) : "";
}

double sql_statement::number(int column) const {
    return sqlite3_column_double(stmt_, column);
}

int sql_statement::integer(int column) const {
    return sqlite3_column_int(stmt_, column);
}

std::optional<double> sql_statement::maybe_number(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
    return number(column);
}

std::optional<int> sql_statement::maybe_integer(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
    return integer(column);
}

}  // namespace gpujudge
