#include "expression.hpp"

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
        if (!std::isfinite(value))
            throw expression_error(fmt::format("expression '{}' is not finite", expression));
        return value;
    } catch (const mu::Parser::exception_type& error) {
        throw expression_error(fmt::format("bad expression '{}': {}", expression, error.GetMsg()));
    }
}

long long evaluate_count(const std::string& expression, const scalar_values& scalars) {
    const double value = evaluate(expression, scalars);
    if (value < 0 || value != std::floor(value) || value > 9.0e15)
        throw expression_error(
            fmt::format("expression '{}' must be a whole non-negative number, got {}", expression, value));
    return static_cast<long long>(value);
}

}  // namespace gpujudge
