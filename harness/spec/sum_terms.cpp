#include "spec/sum_terms.hpp"

#include <fmt/format.h>
#include <muParser.h>

#include <algorithm>
#include <vector>

namespace gpujudge {

namespace {

constexpr std::size_t kBlock = 1 << 16;  // terms per muParser bulk evaluation

}  // namespace

void for_each_term_block(const sum_spec& sum, const scalar_values& scalars,
                         const std::map<std::string, host_array>& inputs, const term_consumer& consume) {
    mu::Parser parser;
    // muParser's bulk mode reads variable i of every bound array; scalars are constants.
    std::vector<std::vector<double>> columns(sum.inputs.size(), std::vector<double>(kBlock));
    std::vector<double> terms(kBlock);
    std::size_t count = 0;
    try {
        for (const auto& [name, value] : scalars) parser.DefineConst(name, value);
        for (std::size_t c = 0; c < sum.inputs.size(); ++c) {
            parser.DefineVar(sum.inputs[c], columns[c].data());
            count = inputs.at(sum.inputs[c]).size();
        }
        parser.SetExpr(sum.terms);
        for (std::size_t begin = 0; begin < count; begin += kBlock) {
            const std::size_t size = std::min(kBlock, count - begin);
            for (std::size_t c = 0; c < sum.inputs.size(); ++c) {
                const host_array& input = inputs.at(sum.inputs[c]);
                for (std::size_t i = 0; i < size; ++i) columns[c][i] = input.value(begin + i);
            }
            parser.Eval(terms.data(), static_cast<int>(size));
            consume(terms.data(), size);
        }
    } catch (const mu::Parser::exception_type& error) {
        throw expression_error(fmt::format("bad expression '{}': {}", sum.terms, error.GetMsg()));
    }
}

std::size_t term_count(const problem_spec& spec, const sum_spec& sum, const scalar_values& scalars) {
    return spec.element_count(*spec.find_parameter(sum.inputs.front()), scalars);
}

double sum_value(const sum_spec& sum, const scalar_values& scalars, const std::map<std::string, host_array>& inputs) {
    double total = 0;
    for_each_term_block(sum, scalars, inputs, [&](const double* terms, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) total += terms[i];
    });
    return evaluate(sum.scale, scalars) * total;
}

}  // namespace gpujudge
