#pragma once
// A prepared SQLite statement, finalised when it goes: the history's and the gradebook's.
#include <sqlite3.h>

#include <optional>
#include <string>

namespace gpujudge {

// Throws "<what>: <SQLite's message>" for `status`: an environment_error where the machine is at
// fault (a full disk or quota, an I/O error, a file it may not write or open), exit 13, which stops a
// grade; a std::runtime_error otherwise (a lock held past the wait: one row's judge_error, as before).
[[noreturn]] void throw_sql_error(const char* what, sqlite3* db, int status);

class sql_statement {
public:
    // Throws std::runtime_error("<what>: <SQLite's message>") when the SQL does not prepare; `what`
    // names the database ("history", "gradebook") in that and in step()'s errors.
    sql_statement(const char* what, sqlite3* db, const std::string& sql);
    ~sql_statement();
    sql_statement(const sql_statement&) = delete;
    sql_statement& operator=(const sql_statement&) = delete;

    sql_statement& bind(int index, const std::string& value);
    sql_statement& bind(int index, double value);
    sql_statement& bind(int index, int value);
    template <typename T>
    sql_statement& bind(int index, const std::optional<T>& value) {
        if (value) return bind(index, *value);
        return bind_null(index);
    }
    sql_statement& bind_null(int index);
    // A row is ready (true), or the statement is done (false); throws for an error.
    bool step();
    std::string text(int column) const;
    double number(int column) const;
    int integer(int column) const;
    std::optional<double> maybe_number(int column) const;
    std::optional<int> maybe_integer(int column) const;

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    const char* what_;
};

}  // namespace gpujudge
