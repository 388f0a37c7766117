#include "spec/expression.hpp"

#include <fmt/format.h>
#include <muParser.h>

#include <cmath>
#include <vector>

namespace gpujudge {

double evaluate(const std::string& expression, const scalar_values& scalars) {
    mu::Parser parser;
    // muParser binds variables by address: keep copies alive for the evaluation.
    std::vector<double> storage;
    storage.reserve(scalars.size());
    try {
        for (const auto& [name, value] : scalars) {
            storage.push_back(value);
            parser.DefineVar(name, &storage.back());
        }
        parser.SetExpr(expression);
        const double value = parser.Eval();
        if (!std::isfinite(value)) throw expression_error(fmt::format("expression '{}' is not finite", expression));
        return value;
    } catch (const mu::Parser::exception_type& error) {
        throw expression_error(fmt::format("bad expression '{}': {}", expression, error.GetMsg()));
    }
}

long long evaluate_count(const std::string& expression, const scalar_values& scalars) {
    const double value = evaluate(expression, scalars);
    if (value < 0 || value != std::floor(value))
        throw expression_error(
            fmt::format("expression '{}' must be a whole non-negative number, got {}", expression, value));
    if (value > static_cast<double>(max_count))
        throw expression_error(fmt::format("expression '{}' = {} exceeds {}", expression, value, max_count));
    return static_cast<long long>(value);
}

bool can_name_a_variable(const std::string& name) {
    mu::Parser parser;
    double value = 42;
    try {
        parser.DefineVar(name, &value);
        parser.SetExpr(name);
        return parser.Eval() == value;
    } catch (const mu::Parser::exception_type&) {
        return false;
    }
}

std::set<std::string> variables_of(const std::string& expression) {
    mu::Parser parser;
    try {
        parser.SetExpr(expression);
        std::set<std::string> names;
        // GetUsedVar parses with undefined variables allowed and lists them.
        for (const auto& entry : parser.GetUsedVar()) names.insert(entry.first);
        return names;
    } catch (const mu::Parser::exception_type& error) {
        throw expression_error(fmt::format("bad expression '{}': {}", expression, error.GetMsg()));
    }
}

}  // namespace gpujudge
