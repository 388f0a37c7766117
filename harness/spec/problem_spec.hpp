#pragma once
// A problem as data: the parsed and checked contents of problems/<slug>/problem.yaml.
#include "spec/expression.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpujudge {

enum class element_type { f32, i32 };
enum class param_role { scalar, in, out, inout };
enum class generator_kind { uniform, normal, integers, constant, cycle, ramp, literal };
enum class test_kind { example, functional, benchmark };

const char* to_string(element_type type);
const char* to_string(test_kind kind);
const char* to_string(generator_kind kind);  // as problem.yaml spells it
std::size_t element_size(element_type type);

struct parameter {
    std::string name;
    element_type type = element_type::f32;
    bool is_pointer = false;
    bool is_const = false;
    param_role role = param_role::scalar;
    std::vector<std::string> shape;  // expressions of the scalars; pointers only
    int line = 0;

    bool is_input() const { return role == param_role::in || role == param_role::inout; }
    bool is_output() const { return role == param_role::out || role == param_role::inout; }
    std::string c_type() const;  // "const float*"
};

struct generator_spec {
    generator_kind kind = generator_kind::constant;
    std::vector<std::string> args;  // expressions (bounds, mean, step...)
    std::vector<double> values;     // cycle and literal lists
    int line = 0;
};

struct range_spec {
    std::string min;
    std::string max;
    int line = 0;
};

struct tolerance_spec {
    std::string atol = "0";
    std::string rtol = "0";
};

struct test_spec {
    std::string name;
    test_kind kind = test_kind::functional;
    scalar_values scalars;
    std::uint64_t seed = 0;
    std::map<std::string, generator_spec> inputs;         // overrides the problem's defaults
    std::map<std::string, std::vector<double>> expected;  // examples only
    int line = 0;
};

// A scalar output computed as `scale` times the sum over i of `terms`, element i of the inputs it
// names: what lets the judge recompute a wrong sum's likely causes from the inputs (the missing
// share of one block, float32 or half-precision accumulation; sum_evidence.hpp).
struct sum_spec {
    std::string output;
    std::string terms;                // an expression of input buffers (element i) and scalars
    std::string scale = "1";          // an expression of the scalars
    std::vector<std::string> inputs;  // the input buffers `terms` reads, all of one shape
    int line = 0;
};

// `diagnosis:` in problem.yaml: what the judge may recompute after a wrong answer to say why.
struct diagnosis_spec {
    std::vector<sum_spec> sums;
    // Int scalars (bounds, lengths) whose shift by one the reference is recomputed for: each group
    // alone per scalar, and all of a group together.
    std::vector<std::vector<std::string>> shifts;
    int line = 0;

    bool empty() const { return sums.empty() && shifts.empty(); }
    const sum_spec* sum_for(const std::string& output) const;
};

struct problem_spec {
    std::filesystem::path dir;
    std::string yaml_path;  // as shown in messages
    // The text parsed: what the runner parses too (it may not see a link's target, nor a later edit),
    // and what caches are keyed by.
    std::string yaml_text;
    std::string title;
    std::string slug;
    int slug_line = 0;  // load_problem checks the slug against the folder after parsing
    std::string difficulty;
    std::vector<parameter> params;
    std::map<std::string, range_spec> constraints;
    std::vector<std::pair<std::string, int>> conditions;  // expression, line
    std::map<std::string, generator_spec> default_inputs;
    std::map<std::string, tolerance_spec> tolerance;
    double time_limit_ms = 2000;
    std::string bytes_expression;
    std::string flops_expression;
    std::vector<test_spec> tests;
    diagnosis_spec diagnosis;

    const parameter* find_parameter(const std::string& name) const;
    // `extern "C" void <function>(const float* input, float* output, int N)`
    std::string prototype(const std::string& function = "solve") const;
    // The generator for an input of a test: the test's own, else the problem's default.
    const generator_spec& generator_for(const test_spec& test, const parameter& input) const;
    // Number of elements of a pointer parameter for a test's scalars; throws expression_error past
    // max_count.
    std::size_t element_count(const parameter& pointer, const scalar_values& scalars) const;
    // Bytes of every buffer (inputs and outputs), for a test's scalars.
    std::size_t buffer_bytes(const scalar_values& scalars) const;
    // Bytes of the buffers solve only writes (role out, not inout), for a test's scalars.
    std::size_t write_only_bytes(const scalar_values& scalars) const;
    // Whether scalars other than a test's would be allowed: constraints, conditions, ints that fit.
    bool allows(const scalar_values& scalars) const;
};

// A problem.yaml the judge refuses; what() reads "path:line: message".
class spec_error : public std::runtime_error {
public:
    spec_error(const std::string& path, int line, const std::string& message);
};

// Parses YAML text; `display_path` prefixes every error message.
problem_spec parse_problem(const std::string& yaml_text, const std::string& display_path);

// Reads <dir>/problem.yaml and checks that its slug names the folder.
problem_spec load_problem(const std::filesystem::path& dir);

}  // namespace gpujudge
