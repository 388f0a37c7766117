#include "spec/problem_spec.hpp"

#include "spec/element_match.hpp"
#include "spec/evaluated_spec.hpp"
#include "spec/host_array.hpp"
#include "spec/sum_terms.hpp"
#include "spec/yaml_document.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

namespace gpujudge {

const char* to_string(element_type type) {
    return type == element_type::f32 ? "float" : "int";
}

const char* to_string(test_kind kind) {
    switch (kind) {
        case test_kind::example:
            return "example";
        case test_kind::functional:
            return "functional";
        case test_kind::benchmark:
            return "benchmark";
    }
    return "?";
}

const char* to_string(generator_kind kind) {
    switch (kind) {
        case generator_kind::uniform:
            return "uniform";
        case generator_kind::normal:
            return "normal";
        case generator_kind::integers:
            return "integers";
        case generator_kind::constant:
            return "constant";
        case generator_kind::cycle:
            return "cycle";
        case generator_kind::ramp:
            return "ramp";
        case generator_kind::literal:
            return "literal";
    }
    return "?";
}

std::size_t element_size(element_type) {
    return 4;
}

std::string parameter::c_type() const {
    std::string text = is_const ? "const " : "";
    text += to_string(type);
    if (is_pointer) text += "*";
    return text;
}

spec_error::spec_error(const std::string& path, int line, const std::string& message)
    : std::runtime_error(line > 0 ? fmt::format("{}:{}: {}", path, line, message)
                                  : fmt::format("{}: {}", path, message)) {}

const parameter* problem_spec::find_parameter(const std::string& name) const {
    for (const auto& param : params)
        if (param.name == name) return &param;
    return nullptr;
}

std::string problem_spec::prototype(const std::string& function) const {
    std::string text = fmt::format("extern \"C\" void {}(", function);
    for (std::size_t i = 0; i < params.size(); ++i)
        text += fmt::format("{}{} {}", i ? ", " : "", params[i].c_type(), params[i].name);
    return text + ")";
}

const generator_spec& problem_spec::generator_for(const test_spec& test, const parameter& input) const {
    if (auto it = test.inputs.find(input.name); it != test.inputs.end()) return it->second;
    return default_inputs.at(input.name);
}

std::size_t problem_spec::element_count(const parameter& pointer, const scalar_values& scalars) const {
    long long count = 1;
    for (const auto& extent : pointer.shape) {
        const long long extent_count = evaluate_count(extent, scalars);
        if (extent_count != 0 && count > max_count / extent_count)
            throw expression_error(
                fmt::format("buffer '{}' would hold more than {} elements", pointer.name, max_count));
        count *= extent_count;
    }
    return static_cast<std::size_t>(count);
}

std::size_t problem_spec::buffer_bytes(const scalar_values& scalars) const {
    std::size_t bytes = 0;
    for (const parameter& p : params)
        if (p.is_pointer) bytes += element_count(p, scalars) * element_size(p.type);
    return bytes;
}

std::size_t problem_spec::write_only_bytes(const scalar_values& scalars) const {
    std::size_t bytes = 0;
    for (const parameter& p : params)
        if (p.role == param_role::out) bytes += element_count(p, scalars) * element_size(p.type);
    return bytes;
}

const sum_spec* diagnosis_spec::sum_for(const std::string& output) const {
    for (const auto& sum : sums)
        if (sum.output == output) return &sum;
    return nullptr;
}

namespace {

constexpr double kIntMin = -2147483648.0;
constexpr double kIntMax = 2147483647.0;
constexpr std::uintmax_t kMaxProblemYamlBytes = std::uintmax_t{16} << 20;
constexpr double kMinTimeLimitMs = 1;
constexpr double kMaxTimeLimitMs = 60000;

bool fits_int(double value) {
    return value >= kIntMin && value <= kIntMax;
}

// Finite once stored as a float: below the midpoint between FLT_MAX and 2^128, so that 3.4028235e38
// (FLT_MAX as NumPy prints it, a little above the double FLT_MAX) rounds to FLT_MAX. NaN does not fit.
bool fits_float(double value) {
    return std::abs(value) < 3.4028235677973366e38;
}

// NaN and the infinities as YAML spells them (.nan, .inf, -.inf), or C (nan, inf, -inf).
std::optional<double> special_float(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool negative = !text.empty() && text[0] == '-';
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.erase(0, 1);
    if (!text.empty() && text[0] == '.') text.erase(0, 1);
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf") return negative ? -HUGE_VAL : HUGE_VAL;
    return std::nullopt;
}

// Why a tolerance's atol or rtol is the problem's mistake, if it is: a negative one passes nothing, and
// an rtol of 1 or more passes an output of 0 whatever is expected (evaluate refuses infinities).
std::optional<std::string> tolerance_problem(const std::string& which, double value) {
    if (value < 0) return fmt::format("{} must not be negative, not {}", which, value);
    if (which == "rtol" && value >= 1)
        return fmt::format("rtol must be under 1 (at 1 an output of 0 passes), not {}", value);
    return std::nullopt;
}

// Why a parameter cannot have this name, if it cannot: the name is declared in C++ (solve, the
// reference, the starters) and in Python (a Python solve's signature), where it would also hide CUDA's
// built-in variables or the modules Python solutions use, and the expressions use it too.
std::optional<std::string> parameter_name_problem(const std::string& name) {
    static const std::set<std::string> cpp_keywords = {
        "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
        "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
        "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
        "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
        "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
        "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
        "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
        "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
        "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
        "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
        "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
        "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
        "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
        "xor_eq"};
    static const std::set<std::string> python_keywords = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    static const std::set<std::string> hidden = {"threadIdx", "blockIdx", "blockDim", "gridDim",
                                                 "warpSize",  "torch",    "triton",   "tl"};
    // Object-like macros the standard headers or the compiler define: a parameter named INFINITY
    // passed, and every learner file that includes <cmath>, the starter too, was a compile error the
    // learner could not fix. (A function-like one, assert, expands only before a '(': a name is safe.)
    static const std::set<std::string> macros = {
        // <cmath>, <cstdio>, <cstdlib>
        "INFINITY", "NAN", "HUGE", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "FP_NAN", "FP_INFINITE", "FP_ZERO",
        "FP_NORMAL", "FP_SUBNORMAL", "FP_ILOGB0", "FP_ILOGBNAN", "MATH_ERRNO", "MATH_ERREXCEPT", "M_E", "M_LOG2E",
        "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI", "M_2_SQRTPI", "M_SQRT2",
        "M_SQRT1_2", "EOF", "NULL", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "SEEK_SET", "SEEK_CUR",
        "SEEK_END", "TMP_MAX", "stdin", "stdout", "stderr", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX",
        // <cerrno>
        "errno", "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD", "EAGAIN",
        "ENOMEM", "EACCES", "EFAULT", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE",
        "EMFILE", "ENOTTY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EILSEQ",
        "EDEADLK", "ENAMETOOLONG", "ENOSYS", "ENOTEMPTY", "ETIMEDOUT", "EOVERFLOW",
        // <climits>, <cfloat>, <cstdint>
        "CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "SCHAR_MAX", "SCHAR_MIN", "UCHAR_MAX", "SHRT_MAX", "SHRT_MIN", "USHRT_MAX",
        "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "ULONG_MAX", "LLONG_MAX", "LLONG_MIN", "ULLONG_MAX",
        "FLT_MAX", "FLT_MIN", "FLT_EPSILON", "FLT_DIG", "FLT_MANT_DIG", "FLT_RADIX", "DBL_MAX", "DBL_MIN",
        "DBL_EPSILON", "DBL_DIG", "DBL_MANT_DIG", "INT8_MAX", "INT8_MIN", "INT16_MAX", "INT16_MIN", "INT32_MAX",
        "INT32_MIN", "INT64_MAX", "INT64_MIN", "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "SIZE_MAX",
        "PTRDIFF_MAX", "PTRDIFF_MIN",
        // the host compiler's own in its GNU modes (nvcc's default)
        "linux", "unix", "i386"};
    const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])) ||
        !std::all_of(name.begin(), name.end(), word_char))
        return std::string("is not a name: a letter, then letters, digits or _");
    if (cpp_keywords.count(name)) return std::string("is a C++ keyword");
    if (python_keywords.count(name)) return std::string("is a Python keyword");
    if (hidden.count(name)) return std::string("would hide CUDA's built-in or the Python module of that name");
    if (macros.count(name))
        return std::string("is a macro of the C and C++ standard headers (<cmath>, <cstdio>, ...) or the compiler");
    if (!can_name_a_variable(name)) return std::string("is a constant of the expressions");
    return std::nullopt;
}

// Reads one YAML document into a problem_spec, remembering where each error points.
class spec_parser {
public:
    explicit spec_parser(std::string path) : path_(std::move(path)) {}

    problem_spec parse(const std::string& text) {
        const YAML::Node root = load_yaml_document(text, path_);
        root_ = root;
        if (!root.IsMap()) fail(root, "expected a mapping at the top level");
        check_keys(root, {"title", "slug", "difficulty", "signature", "constraints", "conditions", "inputs",
                          "tolerance", "time_limit_ms", "metrics", "tests", "diagnosis"});

        problem_spec spec;
        spec.yaml_path = path_;
        spec.title = one_line_of(require(root, "title"), "title");
        spec.slug = text_of(require(root, "slug"));
        spec.slug_line = line_of(root["slug"]);
        // The page's routes, the shell and the history take a slug as a plain word.
        if (spec.slug.empty() ||
            spec.slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos)
            fail(root["slug"], fmt::format("slug '{}' must be lower-case letters, digits, '_' or '-'", spec.slug));
        spec.difficulty = text_of(require(root, "difficulty"));
        if (spec.difficulty != "easy" && spec.difficulty != "medium" && spec.difficulty != "hard")
            fail(root["difficulty"], "difficulty must be easy, medium or hard");

        parse_signature(require(root, "signature"), spec);
        parse_constraints(require(root, "constraints"), spec);
        if (root["conditions"]) parse_conditions(root["conditions"], spec);
        if (root["inputs"]) parse_generators(root["inputs"], spec, spec.default_inputs, "");
        parse_tolerance(root["tolerance"], spec);
        if (root["time_limit_ms"]) spec.time_limit_ms = time_limit_of(root["time_limit_ms"]);
        parse_metrics(require(root, "metrics"), spec);
        parse_tests(require(root, "tests"), spec);
        if (root["diagnosis"]) parse_diagnosis(root["diagnosis"], spec);
        for (const auto& sum : spec.diagnosis.sums) check_sum_on_examples(sum, spec);
        return spec;
    }

private:
    std::string path_;
    std::set<std::string> scalars_;  // names the expressions may use
    YAML::Node root_;                // to name the key of a value that is not where it should be

    // The key a node is the value of, found by identity in the document: yaml-cpp's nodes do not know it.
    static std::optional<YAML::Node> key_of(const YAML::Node& tree, const YAML::Node& node) {
        if (tree.IsMap())
            for (const auto& entry : tree) {
                if (entry.second.is(node)) return entry.first;
                if (auto key = key_of(entry.second, node)) return key;
            }
        if (tree.IsSequence())
            for (const auto& item : tree)
                if (auto key = key_of(item, node)) return key;
        return std::nullopt;
    }

    [[noreturn]] void fail(int line, const std::string& message) const { throw spec_error(path_, line, message); }
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const { fail(line_of(node), message); }
    static int line_of(const YAML::Node& node) { return node.Mark().line + 1; }

    YAML::Node require(const YAML::Node& map, const std::string& key) const {
        const YAML::Node value = map[key];
        if (!value) fail(map, fmt::format("missing required key '{}'", key));
        return value;
    }

    void check_keys(const YAML::Node& map, std::initializer_list<const char*> allowed) const {
        if (!map.IsMap()) fail(map, "expected a mapping");
        for (const auto& entry : map) {
            const auto key = entry.first.as<std::string>();
            if (std::find_if(allowed.begin(), allowed.end(), [&](const char* k) { return key == k; }) ==
                allowed.end()) {
                std::string names;
                for (const char* k : allowed) names += fmt::format("{}{}", names.empty() ? "" : ", ", k);
                fail(entry.first, fmt::format("unknown key '{}' (expected one of: {})", key, names));
            }
        }
    }

    std::string text_of(const YAML::Node& node) const {
        if (!node.IsScalar()) {
            const auto key = key_of(root_, node);
            // An empty value's mark is past its line: the key's is the line it was written on.
            fail(node.IsNull() && key ? line_of(*key) : line_of(node),
                 fmt::format("{}expected a single value, found {}", key ? "'" + key->Scalar() + "': " : "",
                             node.IsSequence() ? "a list"
                             : node.IsMap()    ? "a mapping"
                                               : "none"));
        }
        return node.as<std::string>();
    }

    // A title or a test's name: printed on terminals and in tables, so one line of printable text.
    std::string one_line_of(const YAML::Node& node, const char* what) const {
        const std::string text = text_of(node);
        if (text.find_first_not_of(" \t") == std::string::npos) fail(node, fmt::format("{} must not be empty", what));
        for (const char c : text)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                fail(node, fmt::format("{} holds a control character (0x{:02x})", what, static_cast<unsigned char>(c)));
        return text;
    }

    double number_of(const YAML::Node& node) const {
        try {
            return evaluate(text_of(node), {});
        } catch (const expression_error& error) {
            fail(node, error.what());
        }
    }

    // An expression of the scalars, checked where it is written: its syntax, and that every name in
    // it is a scalar parameter. Its value is checked per test, once the scalars are known.
    std::string expression_of(const YAML::Node& node, const std::string& what) const {
        const std::string text = text_of(node);
        std::set<std::string> names;
        try {
            names = variables_of(text);
        } catch (const expression_error& error) {
            fail(node, fmt::format("{}: {}", what, error.what()));
        }
        for (const auto& name : names)
            if (!scalars_.count(name)) fail(node, fmt::format("{} uses unknown scalar '{}'", what, name));
        return text;
    }

    // The value of an expression that names no scalar; nothing for one that does.
    std::optional<double> constant_of(const YAML::Node& node, const std::string& what) const {
        const std::string text = expression_of(node, what);
        if (!variables_of(text).empty()) return std::nullopt;
        try {
            return evaluate(text, {});
        } catch (const expression_error& error) {
            fail(node, fmt::format("{}: {}", what, error.what()));
        }
    }

    // One value of a literal list (examples, cycle): a number, or NaN and the infinities for floats.
    double element_of(const YAML::Node& node, const parameter& param, const std::string& where) const {
        if (node.IsSequence())  // as `show` prints a buffer of two extents or more
            fail(node, fmt::format("{}'{}' takes a flat list of numbers (row-major for a shape of more than one "
                                   "extent), not nested lists",
                                   where, param.name));
        const std::string text = text_of(node);
        const std::optional<double> special = special_float(text);
        const double value = special ? *special : number_of(node);
        if (param.type == element_type::i32 && (special || value != std::floor(value) || !fits_int(value)))
            fail(node, fmt::format("{}'{}' holds int: {} is not an int", where, param.name, text));
        if (param.type == element_type::f32 && !special && !fits_float(value))
            fail(node, fmt::format("{}'{}' holds float: {} is beyond its range (at most 3.40282e+38 in magnitude; "
                                   "write .inf for an infinity)",
                                   where, param.name, text));
        return value;
    }

    std::uint64_t seed_of(const YAML::Node& node) const {
        const std::string text = text_of(node);
        std::uint64_t seed = 0;
        // Parsed as an integer: through double, seeds past 2^53 would round onto each other.
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
            fail(node, fmt::format("seed must be a whole number in [0, {}], not '{}'",
                                   std::numeric_limits<std::uint64_t>::max(), text));
        return seed;
    }

    double time_limit_of(const YAML::Node& node) const {
        const std::string text = text_of(node);
        double value = 0;
        try {
            value = evaluate(text, {});
        } catch (const expression_error&) {
            // The message below says what is wanted; muParser's says less.
        }
        // Under a millisecond no call can finish; past a minute a hung kernel holds the GPU for nothing.
        if (!(value >= kMinTimeLimitMs && value <= kMaxTimeLimitMs))
            fail(node, fmt::format("time_limit_ms must be a number of milliseconds in [{}, {}], not '{}'",
                                   kMinTimeLimitMs, kMaxTimeLimitMs, text));
        return value;
    }

    void parse_signature(const YAML::Node& list, problem_spec& spec) {
        if (!list.IsSequence() || list.size() == 0) fail(list, "signature must be a non-empty list of parameters");
        for (const auto& item : list) {
            spec.params.push_back(parse_parameter(item, spec));
            if (!spec.params.back().is_pointer) scalars_.insert(spec.params.back().name);
        }
        // Shapes may name scalars that come later in the signature: checked once all are known.
        for (std::size_t i = 0; i < spec.params.size(); ++i) {
            const parameter& param = spec.params[i];
            if (!param.is_pointer) continue;
            for (const auto& extent : list[i]["shape"]) check_extent(extent, param, spec);
        }
    }

    // An extent counts elements: it names known scalars, and int ones (a float's value would be cut
    // to a count the examples' lengths then disagree with, far from the cause).
    void check_extent(const YAML::Node& extent, const parameter& param, const problem_spec& spec) const {
        const std::string what = fmt::format("shape of '{}'", param.name);
        for (const auto& name : variables_of(expression_of(extent, what)))
            if (spec.find_parameter(name)->type != element_type::i32)
                fail(extent, fmt::format("{} uses float scalar '{}': shapes take int scalars", what, name));
    }

    parameter parse_parameter(const YAML::Node& item, const problem_spec& spec) const {
        check_keys(item, {"name", "type", "role", "shape"});
        parameter param;
        param.line = line_of(item);
        param.name = text_of(require(item, "name"));
        if (const auto problem = parameter_name_problem(param.name))
            fail(item["name"], fmt::format("parameter name '{}' {}", param.name, *problem));
        if (spec.find_parameter(param.name)) fail(item, fmt::format("duplicate parameter '{}'", param.name));
        parse_type(require(item, "type"), param);
        if (!param.is_pointer) {
            if (item["role"] || item["shape"])
                fail(item, fmt::format("scalar parameter '{}' takes no role or shape", param.name));
            return param;
        }
        const std::string role = text_of(require(item, "role"));
        if (role == "in")
            param.role = param_role::in;
        else if (role == "out")
            param.role = param_role::out;
        else if (role == "inout")
            param.role = param_role::inout;
        else
            fail(item["role"], fmt::format("role must be in, out or inout, not '{}'", role));
        if (param.is_const && param.role != param_role::in)
            fail(item["role"], fmt::format("const pointer '{}' must have role in", param.name));
        const YAML::Node shape = require(item, "shape");
        if (!shape.IsSequence() || shape.size() == 0) fail(shape, "shape must be a non-empty list");
        for (const auto& extent : shape) param.shape.push_back(text_of(extent));
        return param;
    }

    void parse_type(const YAML::Node& node, parameter& param) const {
        std::string text = text_of(node);
        std::string compact;
        for (char c : text)
            if (c != ' ') compact += c;
        param.is_const = compact.rfind("const", 0) == 0;
        if (param.is_const) compact.erase(0, 5);
        param.is_pointer = !compact.empty() && compact.back() == '*';
        if (param.is_pointer) compact.pop_back();
        if (compact == "float")
            param.type = element_type::f32;
        else if (compact == "int")
            param.type = element_type::i32;
        else
            fail(node,
                 fmt::format("unsupported type '{}' (use float, int, float*, int*, const float*, const int*)", text));
        if (param.is_const && !param.is_pointer)
            fail(node, fmt::format("scalar parameter '{}' is passed by value: drop const", param.name));
    }

    void parse_constraints(const YAML::Node& map, problem_spec& spec) const {
        if (!map.IsMap()) fail(map, "constraints must map each scalar to [min, max]");
        for (const auto& entry : map) {
            const auto name = entry.first.as<std::string>();
            const parameter* param = spec.find_parameter(name);
            if (!param || param->is_pointer)
                fail(entry.first, fmt::format("constraint on '{}', which is not a scalar parameter", name));
            spec.constraints[name] = parse_range(entry.second, *param);
        }
        for (const auto& param : spec.params)
            if (!param.is_pointer && !spec.constraints.count(param.name))
                fail(param.line, fmt::format("scalar '{}' has no constraint", param.name));
    }

    // Bounds that name no scalar are checked here; the others for each test.
    range_spec parse_range(const YAML::Node& node, const parameter& param) const {
        const std::string what = fmt::format("constraint on '{}'", param.name);
        if (!node.IsSequence() || node.size() != 2) fail(node, fmt::format("{} must be [min, max]", what));
        const char* bound_names[] = {"min", "max"};
        std::optional<double> bounds[2];
        for (int i = 0; i < 2; ++i) {
            bounds[i] = constant_of(node[i], what);
            if (param.type == element_type::i32 && bounds[i] && !fits_int(*bounds[i]))
                fail(node[i], fmt::format("{}: {} {} does not fit in an int", what, bound_names[i], *bounds[i]));
            if (param.type == element_type::i32 && bounds[i] && *bounds[i] != std::floor(*bounds[i]))
                fail(node[i], fmt::format("{}: {} {} is not a whole number", what, bound_names[i], *bounds[i]));
        }
        if (bounds[0] && bounds[1] && *bounds[0] > *bounds[1])
            fail(node, fmt::format("{}: min {} > max {}", what, *bounds[0], *bounds[1]));
        return {text_of(node[0]), text_of(node[1]), line_of(node)};
    }

    void parse_conditions(const YAML::Node& list, problem_spec& spec) const {
        if (!list.IsSequence()) fail(list, "conditions must be a list of expressions");
        for (const auto& item : list) spec.conditions.emplace_back(expression_of(item, "condition"), line_of(item));
    }

    generator_spec parse_generator(const YAML::Node& node, const parameter& param, const std::string& where) const {
        generator_spec gen;
        gen.line = line_of(node);
        if (node.IsSequence()) {
            gen.kind = generator_kind::literal;
            for (const auto& value : node) gen.values.push_back(element_of(value, param, where));
            return gen;
        }
        if (!node.IsMap() || node.size() != 1)
            fail(node, fmt::format("input '{}': expected a list of values or one generator "
                                   "(uniform, normal, integers, constant, cycle, ramp)",
                                   param.name));
        const auto kind = node.begin()->first.as<std::string>();
        const YAML::Node args = node.begin()->second;
        const std::string what = fmt::format("{} of '{}'", kind, param.name);
        auto take_pair = [&](generator_kind k) {
            if (!args.IsSequence() || args.size() != 2) fail(args, fmt::format("{} takes [a, b]", kind));
            gen.kind = k;
            gen.args = {expression_of(args[0], what), expression_of(args[1], what)};
        };
        if (kind == "uniform")
            take_pair(generator_kind::uniform);
        else if (kind == "normal")
            take_pair(generator_kind::normal);
        else if (kind == "integers")
            take_pair(generator_kind::integers);
        else if (kind == "ramp")
            take_pair(generator_kind::ramp);
        else if (kind == "constant") {
            gen.kind = generator_kind::constant;
            gen.args = {expression_of(args, what)};
        } else if (kind == "cycle") {
            if (!args.IsSequence() || args.size() == 0) fail(args, "cycle takes a non-empty list");
            gen.kind = generator_kind::cycle;
            for (const auto& value : args) gen.values.push_back(element_of(value, param, where));
        } else {
            fail(node, fmt::format("unknown generator '{}' for input '{}' (expected uniform, normal, integers, "
                                   "constant, cycle or ramp)",
                                   kind, param.name));
        }
        if (param.type == element_type::i32 &&
            (gen.kind == generator_kind::uniform || gen.kind == generator_kind::normal))
            fail(node, fmt::format("input '{}' holds int: use integers, not {}", param.name, kind));
        return gen;
    }

    // The problem's default generators (where == "") or a test's own, which may be literal lists.
    void parse_generators(const YAML::Node& map, const problem_spec& spec, std::map<std::string, generator_spec>& out,
                          const std::string& where) const {
        if (!map.IsMap()) fail(map, "inputs must map each input buffer to a generator");
        for (const auto& entry : map) {
            const auto name = entry.first.as<std::string>();
            const parameter* param = spec.find_parameter(name);
            if (!param || !param->is_input())
                fail(entry.first, fmt::format("'{}' is not an input buffer of solve", name));
            generator_spec gen = parse_generator(entry.second, *param, where);
            if (gen.kind == generator_kind::literal && where.empty())
                fail(entry.second, fmt::format("default input '{}' cannot be a literal list", name));
            out[name] = std::move(gen);
        }
    }

    // atol or rtol; one that names no scalar is checked here, the others for each test.
    std::string tolerance_bound(const YAML::Node& node, const char* which, const std::string& what) const {
        const std::string text = expression_of(node, what);
        if (const auto value = constant_of(node, what))
            if (const auto problem = tolerance_problem(which, *value))
                fail(node, fmt::format("{}: {}", what, *problem));
        return text;
    }

    void parse_tolerance(const YAML::Node& map, problem_spec& spec) const {
        if (map) {
            if (!map.IsMap()) fail(map, "tolerance must map each float output to {atol, rtol}");
            for (const auto& entry : map) {
                const auto name = entry.first.as<std::string>();
                const parameter* param = spec.find_parameter(name);
                if (!param || !param->is_output() || param->type != element_type::f32)
                    fail(entry.first, fmt::format("tolerance for '{}', which is not a float output", name));
                check_keys(entry.second, {"atol", "rtol"});
                const std::string what = fmt::format("tolerance of '{}'", name);
                tolerance_spec tol;
                if (entry.second["atol"]) tol.atol = tolerance_bound(entry.second["atol"], "atol", what);
                if (entry.second["rtol"]) tol.rtol = tolerance_bound(entry.second["rtol"], "rtol", what);
                spec.tolerance[name] = tol;
            }
        }
        for (const auto& param : spec.params)
            if (param.is_output() && param.type == element_type::f32 && !spec.tolerance.count(param.name))
                fail(param.line, fmt::format("float output '{}' needs a tolerance", param.name));
    }

    void parse_metrics(const YAML::Node& metrics, problem_spec& spec) const {
        check_keys(metrics, {"bytes", "flops"});
        spec.bytes_expression = expression_of(require(metrics, "bytes"), "metrics 'bytes'");
        spec.flops_expression = metrics["flops"] ? expression_of(metrics["flops"], "metrics 'flops'") : "0";
    }

    void parse_diagnosis(const YAML::Node& node, problem_spec& spec) const {
        if (!node.IsMap()) fail(node, "diagnosis must be a mapping with sums and/or shifts");
        check_keys(node, {"sums", "shifts"});
        spec.diagnosis.line = line_of(node);
        if (node["sums"]) parse_sums(node["sums"], spec);
        if (node["shifts"]) parse_shifts(node["shifts"], spec);
    }

    void parse_sums(const YAML::Node& map, problem_spec& spec) const {
        if (!map.IsMap()) fail(map, "diagnosis: sums must map each one-element output to {terms, scale}");
        for (const auto& entry : map) {
            sum_spec sum;
            sum.output = entry.first.as<std::string>();
            sum.line = line_of(entry.first);
            const parameter* param = spec.find_parameter(sum.output);
            if (!param || !param->is_output())
                fail(entry.first, fmt::format("diagnosis: '{}' is not an output of solve", sum.output));
            if (param->shape.size() != 1 || param->shape[0] != "1")
                fail(entry.first,
                     fmt::format("diagnosis: a sum is one value, but '{}' does not have shape [1]", sum.output));
            if (!entry.second.IsMap()) fail(entry.second, "diagnosis: a sum needs {terms, scale}");
            check_keys(entry.second, {"terms", "scale"});
            const YAML::Node terms = require(entry.second, "terms");
            sum.terms = text_of(terms);
            sum.inputs = inputs_of_terms(terms, sum, spec);
            if (entry.second["scale"])
                sum.scale = expression_of(entry.second["scale"], fmt::format("diagnosis: scale of '{}'", sum.output));
            spec.diagnosis.sums.push_back(std::move(sum));
        }
    }

    // The input buffers a sum's terms read (element by element, so all of one shape); the other
    // names must be scalars.
    std::vector<std::string> inputs_of_terms(const YAML::Node& node, const sum_spec& sum,
                                             const problem_spec& spec) const {
        std::set<std::string> names;
        try {
            names = variables_of(sum.terms);
        } catch (const expression_error& error) {
            fail(node, fmt::format("diagnosis: terms of '{}': {}", sum.output, error.what()));
        }
        std::vector<std::string> inputs;
        for (const auto& name : names) {
            const parameter* param = spec.find_parameter(name);
            if (param && param->is_pointer && param->role == param_role::in)
                inputs.push_back(name);
            else if (!param || param->is_pointer)
                fail(node, fmt::format("diagnosis: terms of '{}' use '{}', which is neither an input buffer nor a "
                                       "scalar",
                                       sum.output, name));
        }
        if (inputs.empty()) fail(node, fmt::format("diagnosis: terms of '{}' read no input buffer", sum.output));
        for (const auto& name : inputs)
            if (spec.find_parameter(name)->shape != spec.find_parameter(inputs[0])->shape)
                fail(node, fmt::format("diagnosis: terms of '{}' read '{}' and '{}', whose shapes differ", sum.output,
                                       inputs[0], name));
        return inputs;
    }

    void parse_shifts(const YAML::Node& list, problem_spec& spec) const {
        if (!list.IsSequence())
            fail(list, "diagnosis: shifts must list int scalars, or lists of them to shift together");
        for (const auto& item : list) {
            std::vector<YAML::Node> names;
            if (item.IsSequence())
                for (const auto& name_node : item) names.push_back(name_node);
            else
                names.push_back(item);
            std::vector<std::string> group;
            for (const auto& name_node : names) {
                const std::string name = text_of(name_node);
                const parameter* param = spec.find_parameter(name);
                if (!param || param->is_pointer || param->type != element_type::i32)
                    fail(name_node, fmt::format("diagnosis: shift of '{}', which is not an int scalar", name));
                group.push_back(name);
            }
            if (group.empty()) fail(item, "diagnosis: an empty group of shifts");
            spec.diagnosis.shifts.push_back(std::move(group));
        }
    }

    // A declared sum must give every example's expected value: a wrong declaration would name
    // wrong causes.
    void check_sum_on_examples(const sum_spec& sum, const problem_spec& spec) const {
        const parameter& output = *spec.find_parameter(sum.output);
        for (const auto& test : spec.tests) {
            const auto literal = [&](const std::string& name) {
                return test.inputs.at(name).kind == generator_kind::literal;
            };
            if (test.kind != test_kind::example || !std::all_of(sum.inputs.begin(), sum.inputs.end(), literal))
                continue;
            std::map<std::string, host_array> inputs;
            for (const auto& name : sum.inputs) {
                const std::vector<double>& values = test.inputs.at(name).values;
                host_array& input =
                    inputs.emplace(name, host_array(spec.find_parameter(name)->type, values.size())).first->second;
                for (std::size_t i = 0; i < values.size(); ++i) input.set(i, values[i]);
            }
            double value = 0;
            tolerance tol;
            const double expected = test.expected.at(sum.output).at(0);
            try {
                value = sum_value(sum, test.scalars, inputs);
                tol = tolerance_for(spec, output, test.scalars);
            } catch (const expression_error& error) {
                fail(sum.line, fmt::format("diagnosis: the sum of '{}' on example '{}': {}", sum.output, test.name,
                                           error.what()));
            }
            const bool agrees = output.type == element_type::f32 ? float_matches(expected, value, tol.atol, tol.rtol)
                                                                 : std::nearbyint(value) == expected;
            if (!agrees)
                fail(sum.line, fmt::format("diagnosis: the sum declared for '{}' gives {} on example '{}', which "
                                           "expects {}",
                                           sum.output, value, test.name, expected));
        }
    }

    void parse_tests(const YAML::Node& map, problem_spec& spec) const {
        check_keys(map, {"examples", "functional", "benchmarks"});
        const std::pair<const char*, test_kind> groups[] = {{"examples", test_kind::example},
                                                            {"functional", test_kind::functional},
                                                            {"benchmarks", test_kind::benchmark}};
        std::set<std::string> names;
        for (const auto& [key, kind] : groups) {
            const YAML::Node list = map[key];
            if (!list) {
                if (kind != test_kind::benchmark) fail(map, fmt::format("missing required key '{}'", key));
                continue;
            }
            if (!list.IsSequence()) fail(list, fmt::format("{} must be a list of tests", key));
            std::uint64_t position = 0;
            for (const auto& item : list) {
                test_spec test = parse_test(item, kind, spec);
                test.seed = item["seed"] ? seed_of(item["seed"]) : position;
                ++position;
                if (!names.insert(test.name).second) fail(item, fmt::format("duplicate test name '{}'", test.name));
                check_test(test, spec);
                spec.tests.push_back(std::move(test));
            }
        }
    }

    test_spec parse_test(const YAML::Node& item, test_kind kind, const problem_spec& spec) const {
        if (kind == test_kind::example)
            check_keys(item, {"name", "scalars", "inputs", "expected"});
        else
            check_keys(item, {"name", "scalars", "inputs", "seed"});
        test_spec test;
        test.kind = kind;
        test.line = line_of(item);
        test.name = one_line_of(require(item, "name"), "test name");
        const std::string where = fmt::format("test '{}': ", test.name);
        parse_test_scalars(require(item, "scalars"), spec, where, test);
        if (item["inputs"]) parse_generators(item["inputs"], spec, test.inputs, where);
        if (kind == test_kind::example) parse_expected(require(item, "expected"), spec, where, test);
        return test;
    }

    void parse_test_scalars(const YAML::Node& scalars, const problem_spec& spec, const std::string& where,
                            test_spec& test) const {
        if (!scalars.IsMap()) fail(scalars, "scalars must map each scalar parameter to a value");
        for (const auto& entry : scalars) {
            const auto name = entry.first.as<std::string>();
            const parameter* param = spec.find_parameter(name);
            if (!param || param->is_pointer) fail(entry.first, fmt::format("'{}' is not a scalar parameter", name));
            const double value = number_of(entry.second);
            if (param->type == element_type::i32 && value != std::floor(value))
                fail(entry.second, fmt::format("{}{} = {} is not a whole number", where, name, value));
            if (param->type == element_type::i32 && !fits_int(value))
                fail(entry.second, fmt::format("{}{} = {} does not fit in an int", where, name, value));
            test.scalars[name] = value;
        }
    }

    void parse_expected(const YAML::Node& expected, const problem_spec& spec, const std::string& where,
                        test_spec& test) const {
        if (!expected.IsMap()) fail(expected, "expected must map each output to its values");
        for (const auto& entry : expected) {
            const auto name = entry.first.as<std::string>();
            const parameter* param = spec.find_parameter(name);
            if (!param || !param->is_output()) fail(entry.first, fmt::format("'{}' is not an output of solve", name));
            if (!entry.second.IsSequence()) fail(entry.second, fmt::format("expected '{}' must be a list", name));
            for (const auto& value : entry.second) test.expected[name].push_back(element_of(value, *param, where));
        }
    }

    // Every check that needs a test's scalars: ranges, conditions, shapes, literal lengths, and the
    // values of the expressions (finite, whole where they count).
    void check_test(const test_spec& test, const problem_spec& spec) const {
        const std::string where = fmt::format("test '{}'", test.name);
        try {
            check_scalars(test, spec, where);
            for (const auto& param : spec.params)
                if (param.is_pointer) check_buffer(test, spec, param, where);
            for (const auto& [name, tol] : spec.tolerance)
                for (const auto& [which, text] : {std::pair{"atol", tol.atol}, std::pair{"rtol", tol.rtol}})
                    if (const auto problem = tolerance_problem(which, evaluate(text, test.scalars)))
                        fail(test.line, fmt::format("{}: tolerance of '{}': {}", where, name, *problem));
            check_metrics(test, spec, where);
        } catch (const expression_error& error) {
            fail(test.line, fmt::format("{}: {}", where, error.what()));
        }
    }

    // metrics.bytes is the least a solve must move, and the time floor is those bytes at the ceiling:
    // more than the buffers hold (each input read once, each output written once, inout both) would
    // refuse honest times, and none would leave no floor.
    void check_metrics(const test_spec& test, const problem_spec& spec, const std::string& where) const {
        const double bytes = evaluate(spec.bytes_expression, test.scalars);
        double held = 0;
        for (const auto& param : spec.params)
            if (param.is_pointer)
                held += static_cast<double>(spec.element_count(param, test.scalars) * element_size(param.type)) *
                        (param.role == param_role::inout ? 2 : 1);
        if (!(bytes > 0)) fail(test.line, fmt::format("{}: metrics 'bytes' = {} must be positive", where, bytes));
        if (bytes > held)
            fail(test.line, fmt::format("{}: metrics 'bytes' = {} is more than the {} bytes solve's buffers hold (each "
                                        "input read once, each output written once): the time floor would refuse "
                                        "honest solutions",
                                        where, bytes, held));
        if (evaluate(spec.flops_expression, test.scalars) < 0)
            fail(test.line, fmt::format("{}: metrics 'flops' must not be negative", where));
    }

    void check_scalars(const test_spec& test, const problem_spec& spec, const std::string& where) const {
        // All present before any bound is evaluated: a bound may name a later scalar.
        for (const auto& param : spec.params)
            if (!param.is_pointer && !test.scalars.count(param.name))
                fail(test.line, fmt::format("{}: missing scalar '{}'", where, param.name));
        for (const auto& param : spec.params) {
            if (param.is_pointer) continue;
            const double value = test.scalars.at(param.name);
            // Passed to solve and the reference as a float: past 3.4e38 it arrived as inf, and the
            // reference's outputs were blamed on it.
            if (param.type == element_type::f32 && !fits_float(value))
                fail(test.line, fmt::format("{}: {} = {} does not fit in a float (at most 3.40282e+38 in magnitude)",
                                            where, param.name, value));
            const range_spec& range = spec.constraints.at(param.name);
            if (value < evaluate(range.min, test.scalars) || value > evaluate(range.max, test.scalars))
                fail(test.line, fmt::format("{}: {} = {} is outside its constraint [{}, {}]", where, param.name, value,
                                            range.min, range.max));
        }
        for (const auto& [condition, condition_line] : spec.conditions)
            if (evaluate(condition, test.scalars) == 0.0)
                fail(test.line, fmt::format("{}: condition '{}' does not hold", where, condition));
    }

    // A range drawn from must not be empty (integers would give its lower bound alone), nor past an
    // int buffer's values (they would saturate), and a normal's deviation not negative.
    void check_generator_args(const generator_spec& gen, const parameter& param, const std::string& where,
                              const scalar_values& scalars, std::size_t count) const {
        std::vector<double> args;
        for (const auto& arg : gen.args) args.push_back(evaluate(arg, scalars));
        const bool range = gen.kind == generator_kind::uniform || gen.kind == generator_kind::integers;
        if (range && args[0] > args[1])
            fail(gen.line, fmt::format("{}: '{}' draws from [{}, {}], which is empty: the lower bound comes first",
                                       where, param.name, args[0], args[1]));
        if (gen.kind == generator_kind::integers && param.type == element_type::i32 &&
            !(fits_int(args[0]) && fits_int(args[1])))
            fail(gen.line,
                 fmt::format("{}: '{}' holds int, but draws from [{}, {}]", where, param.name, args[0], args[1]));
        if (gen.kind == generator_kind::normal && args[1] < 0)
            fail(gen.line, fmt::format("{}: '{}' has a normal deviation of {}, which must not be negative", where,
                                       param.name, args[1]));
        check_values_fit(gen, param, where, args, count);
    }

    // What a generator makes must be a value of its buffer's type: stored, a float past 3.4e38 became
    // inf and an int past 2^31 saturated, and a reference and solve computed on data no one asked for.
    // (A fractional ramp on ints is meant: its values truncate, as the statement of max_subarray_sum says.)
    void check_values_fit(const generator_spec& gen, const parameter& param, const std::string& where,
                          const std::vector<double>& args, std::size_t count) const {
        std::vector<double> made;  // its extremes
        if (gen.kind == generator_kind::uniform || gen.kind == generator_kind::integers ||
            gen.kind == generator_kind::constant)
            made = args;
        if (gen.kind == generator_kind::normal) made = {args[0] - 6 * args[1], args[0] + 6 * args[1]};  // |z| <= 6
        if (gen.kind == generator_kind::ramp) made = {args[0], args[0] + args[1] * static_cast<double>(count - 1)};
        const bool is_int = param.type == element_type::i32;
        for (const double value : made) {
            if (is_int ? fits_int(value) : fits_float(value)) continue;
            fail(gen.line, fmt::format("{}: '{}' holds {}, but its {} generator makes {}, beyond the type's range "
                                       "({})",
                                       where, param.name, is_int ? "int" : "float", to_string(gen.kind), value,
                                       is_int ? "-2147483648 to 2147483647" : "at most 3.40282e+38 in magnitude"));
        }
    }

    void check_buffer(const test_spec& test, const problem_spec& spec, const parameter& param,
                      const std::string& where) const {
        const std::size_t count = spec.element_count(param, test.scalars);
        if (count == 0) fail(test.line, fmt::format("{}: buffer '{}' has no elements", where, param.name));
        if (param.is_input()) {
            const bool has_own = test.inputs.count(param.name) > 0;
            if (test.kind == test_kind::example && !has_own)
                fail(test.line, fmt::format("{}: example needs literal values for '{}'", where, param.name));
            if (!has_own && !spec.default_inputs.count(param.name))
                fail(test.line, fmt::format("{}: no generator for input '{}'", where, param.name));
            const generator_spec& gen = spec.generator_for(test, param);
            if (gen.kind == generator_kind::literal && gen.values.size() != count)
                fail(gen.line, fmt::format("{}: '{}' has {} values but its shape holds {}", where, param.name,
                                           gen.values.size(), count));
            check_generator_args(gen, param, where, test.scalars, count);
        }
        if (test.kind == test_kind::example && param.is_output()) {
            auto it = test.expected.find(param.name);
            if (it == test.expected.end())
                fail(test.line, fmt::format("{}: example needs expected values for '{}'", where, param.name));
            if (it->second.size() != count)
                fail(test.line, fmt::format("{}: expected '{}' has {} values but its shape holds {}", where, param.name,
                                            it->second.size(), count));
        }
    }
};

}  // namespace

bool problem_spec::allows(const scalar_values& scalars) const {
    try {
        for (const auto& param : params) {
            if (param.is_pointer) continue;
            const auto value = scalars.find(param.name);
            if (value == scalars.end()) return false;
            if (param.type == element_type::i32 &&
                (!fits_int(value->second) || value->second != std::floor(value->second)))
                return false;
            const range_spec& range = constraints.at(param.name);
            if (value->second < evaluate(range.min, scalars) || value->second > evaluate(range.max, scalars))
                return false;
        }
        for (const auto& condition : conditions)
            if (evaluate(condition.first, scalars) == 0.0) return false;
        return true;
    } catch (const expression_error&) {
        return false;
    }
}

problem_spec parse_problem(const std::string& yaml_text, const std::string& display_path) {
    problem_spec spec = spec_parser(display_path).parse(yaml_text);
    spec.yaml_text = yaml_text;
    return spec;
}

problem_spec load_problem(const std::filesystem::path& dir) {
    const auto path = dir / "problem.yaml";
    // A FIFO would block the judge and a device never end: only a regular file of a sane size is read.
    std::error_code error;
    if (std::filesystem::is_symlink(path, error) && !std::filesystem::exists(path, error))
        throw spec_error(
            path.string(), 0,
            fmt::format("a link to '{}', which does not exist", std::filesystem::read_symlink(path, error).string()));
    if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error))
        throw spec_error(path.string(), 0, "not a regular file");
    if (std::filesystem::is_regular_file(path, error) && std::filesystem::file_size(path, error) > kMaxProblemYamlBytes)
        throw spec_error(path.string(), 0, fmt::format("larger than {} MiB", kMaxProblemYamlBytes >> 20));
    std::ifstream file(path);
    if (!file) throw spec_error(path.string(), 0, "cannot read the file");
    std::stringstream text;
    text << file.rdbuf();
    problem_spec spec = parse_problem(text.str(), path.string());
    spec.dir = dir;
    const std::string folder = std::filesystem::absolute(dir).lexically_normal().filename().string();
    const std::string folder_name = folder.empty() ? dir.parent_path().filename().string() : folder;
    if (spec.slug != folder_name)
        throw spec_error(path.string(), spec.slug_line,
                         fmt::format("slug '{}' must equal the folder name '{}'", spec.slug, folder_name));
    return spec;
}

}  // namespace gpujudge
