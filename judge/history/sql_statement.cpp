#include "history/sql_statement.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gpujudge {

sql_statement::sql_statement(const char* what, sqlite3* db, const std::string& sql) : db_(db), what_(what) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
        throw std::runtime_error(fmt::format("{}: {}", what_, sqlite3_errmsg(db)));
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
    if (status != SQLITE_ROW && status != SQLITE_DONE)
        throw std::runtime_error(fmt::format("{}: {}", what_, sqlite3_errmsg(db_)));
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
