#pragma once
// Arithmetic expressions of a problem's scalar parameters ("4 * N + 4", "C - 1"), through muParser.
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace gpujudge {

using scalar_values = std::map<std::string, double>;

class expression_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws expression_error naming the expression and what is wrong with it.
double evaluate(const std::string& expression, const scalar_values& scalars);

// The largest count evaluate_count accepts: far past any GPU's memory, and far from overflowing.
constexpr long long max_count = 9'000'000'000'000'000;

// Evaluates and requires a whole number in [0, max_count] (a shape extent or a count).
long long evaluate_count(const std::string& expression, const scalar_values& scalars);

// Whether the expressions can use `name` as a variable (muParser keeps some names, _pi and _e, for
// its own constants).
bool can_name_a_variable(const std::string& name);

// The names of the variables an expression uses, without evaluating it; throws expression_error on
// a syntax error.
std::set<std::string> variables_of(const std::string& expression);

}  // namespace gpujudge
