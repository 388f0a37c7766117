#include "base/exit_codes.hpp"
#include "base/json_text.hpp"
#include "base/user_errors.hpp"
#include "bench/device_probe.hpp"
#include "cli/commands.hpp"
#include "disasm/run.hpp"
#include "disasm/show.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <regex>

namespace gpujudge {

namespace {

// The GPU's own architecture where there is one; else the compiler's default (sm_90).
void adopt_device_arch(const problem_spec& spec, cli_context& context, compiler_settings& compiler) {
    if (context.judge.runner.backend == runner_backend::host) return;
    runner_session probe(spec, context.judge.runner);
    adopt_device(probe, compiler);
}

// An architecture named with --arch: its shape, then whether this nvcc compiles for it, so that a typo
// is a usage error rather than nvcc's compile error. sm_90a and sm_100f are sm_90 and sm_100 features.
void check_arch(const std::string& arch, const compiler_settings& compiler) {
    std::smatch named;
    if (!std::regex_match(arch, named, std::regex("(sm_[0-9]{2,3})[af]?")))
        throw usage_error(fmt::format("--arch {}: not an architecture like sm_90, sm_89 or sm_90a", arch));
    const std::vector<std::string> known = supported_archs(compiler);
    if (!known.empty() && std::find(known.begin(), known.end(), named[1].str()) == known.end())
        throw usage_error(fmt::format("--arch {}: {} does not compile for it; it knows {}", arch, compiler.nvcc,
                                      fmt::join(known, ", ")));
}

}  // namespace

// The machine code of a submission's kernels, with the source line above the instructions it produced:
// SASS (what the GPU runs) or, with --ptx, the PTX nvcc hands to the assembler.
command_action define_asm(CLI::App& command) {
    struct options {
        judge_request request;
        asm_request code;
        std::string arch;
    };
    auto opts = std::make_shared<options>();
    add_judge_arguments(command, opts->request);
    command.add_flag("--ptx", opts->code.ptx, "PTX (nvcc -ptx -lineinfo) instead of SASS");
    command.add_option("--kernel", opts->code.kernel, "Only the kernels whose name contains this");
    command.add_option("--arch", opts->arch, "The architecture to compile for, sm_XY (default: the GPU's, else sm_90)");
    return [opts](cli_context& context) {
        const judge_request& request = opts->request;
        const problem_spec spec = load_named_problem(context, request.problem);
        require_source_file(request.source);
        asm_preflight(request.source, opts->code);
        compiler_settings compiler = context.judge.compiler;
        if (!opts->arch.empty()) {
            check_arch(opts->arch, compiler);
            compiler.arch = opts->arch;
        } else {
            adopt_device_arch(spec, context, compiler);
        }
        const asm_result result = disassemble(spec, request.source, opts->code, compiler);
        source_files files(request.source);
        const line_lookup lines = [&files](const source_place& at) { return files.line(at); };
        if (request.json)
            fmt::print("{}\n", json_text(asm_json(spec, request.source, result, lines), 2));
        else
            fmt::print("{}", asm_text(spec, request.source, result, lines));
        return static_cast<int>(result.compile.ok ? exit_accepted : exit_compile_error);
    };
}

}  // namespace gpujudge
