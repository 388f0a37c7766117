#include "references/context.hpp"

#include "base/problem_error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpujudge {

std::filesystem::path build_reference(const problem_spec& spec, judge_context& context) {
    const compile_result reference = compile_host(spec, spec.dir / "reference.cpp", "reference", context.compiler);
    const std::string where = (spec.dir / "reference.cpp").string();
    if (reference.source_refused)  // its message names the file
        throw problem_error(reference.diagnostics.substr(0, reference.diagnostics.find_last_not_of('\n') + 1));
    if (reference.undefined_function)
        throw problem_error(fmt::format("{}: does not define the function 'reference'; define it exactly as: {}", where,
                                        spec.prototype("reference")));
    if (!reference.ok) throw problem_error(fmt::format("{}: does not compile:\n{}", where, reference.diagnostics));
    return reference.library;
}

std::optional<std::string> load_solution(runner_session& session, compile_result& compile) {
    auto failure = session.load(compile.library, "solve");
    if (!failure || !session.rejected()) return failure;
    compile.ok = false;
    compile.diagnostics = *failure + "\n";
    return std::nullopt;
}

std::vector<int> select_tests(const problem_spec& spec, const std::vector<test_kind>& kinds) {
    std::vector<int> tests;
    for (std::size_t i = 0; i < spec.tests.size(); ++i)
        if (kinds.empty() || std::count(kinds.begin(), kinds.end(), spec.tests[i].kind))
            tests.push_back(static_cast<int>(i));
    return tests;
}

}  // namespace gpujudge
