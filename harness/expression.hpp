#pragma once
// Arithmetic expressions of a problem's scalar parameters ("4 * N + 4", "C - 1"), through muParser.
#include <map>
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

// Evaluates and requires a whole, non-negative number (a shape extent or a count).
long long evaluate_count(const std::string& expression, const scalar_values& scalars);

}  // namespace gpujudge
