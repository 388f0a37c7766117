#include "spec/expression.hpp"

#include <fmt/format.h>
#include <muParser.h>

#include <cmath>
#include <vector>

namespace gpujudge {

namespace {

// muParser assigns with =, +=, -=, *= and /=: a condition 'N = 3' (for N == 3) held for every N, and
// a size 'N += 1' would move N for the rest of the expression. A problem's expressions compare and compute.
void refuse_assignment(const std::string& expression) {
    for (std::size_t at = expression.find('='); at != std::string::npos; at = expression.find('=', at + 1)) {
        const char before = at > 0 ? expression[at - 1] : ' ';
        const char after = at + 1 < expression.size() ? expression[at + 1] : ' ';
        if (after == '=') {
            ++at;  // ==
            continue;
        }
        if (before != '<' && before != '>' && before != '!' && before != '=')
            throw expression_error(fmt::format(
                "expression '{}' assigns ({}=): write == to compare", expression,
                std::string("+-*/").find(before) != std::string::npos ? std::string(1, before) : std::string()));
    }
}

}  // namespace

double evaluate(const std::string& expression, const scalar_values& scalars) {
    refuse_assignment(expression);
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
    refuse_assignment(expression);
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
