#include "submission.hpp"

#include <algorithm>

namespace gpujudge {

const judge_run& judge_context::device() {
    if (!device_) {
        device_ = probe_device(runner);
        if (!device_->no_device) compiler.arch = device_->device.value("arch", compiler.arch);
    }
    return *device_;
}

std::filesystem::path build_reference(const problem_spec& spec, judge_context& context) {
    const compile_result reference = compile_host(spec, spec.dir / "reference.cpp", "reference", context.compiler);
    if (!reference.ok)
        throw problem_error((spec.dir / "reference.cpp").string() + " does not compile:\n" + reference.diagnostics);
    return reference.library;
}

std::vector<int> select_tests(const problem_spec& spec, const std::vector<test_kind>& kinds) {
    std::vector<int> tests;
    for (std::size_t i = 0; i < spec.tests.size(); ++i)
        if (kinds.empty() || std::count(kinds.begin(), kinds.end(), spec.tests[i].kind))
            tests.push_back(static_cast<int>(i));
    return tests;
}

submission_result judge_submission(const problem_spec& spec, const std::filesystem::path& source,
                                   const std::vector<int>& tests, judge_context& context) {
    submission_result result;
    // The device first: its arch decides nvcc's target. Host-built fakes need none.
    const bool on_device = context.runner.backend == runner_backend::device;
    const judge_run* device = on_device ? &context.device() : nullptr;
    const auto reference = build_reference(spec, context);
    if (!on_device)
        result.compile = compile_host(spec, source, "solve", context.compiler);
    else
        result.compile = compile_solution(spec, source, context.compiler);
    if (!result.compile.ok) {
        result.overall = verdict::compile_error;
        return result;
    }
    if (device && device->no_device) {
        result.run = *device;
        result.overall = verdict::no_device;
        return result;
    }
    result.run = run_tests(spec, result.compile.library, reference, tests, context.runner);
    result.overall = result.run.no_device ? verdict::no_device : overall_verdict(result.run.tests);
    return result;
}

}  // namespace gpujudge
