#include "disasm/run.hpp"

#include "base/file_text.hpp"
#include "base/user_errors.hpp"
#include "process/child_process.hpp"
#include "toolkit/programs.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

namespace gpujudge {

namespace {

// The path nvcc wrote into the line info: the one it was given, made absolute (nvcc does the same).
std::string compiled_path(const compile_result& compile, const std::filesystem::path& source) {
    const std::filesystem::path named = compile.compiled_from.empty() ? source : compile.compiled_from;
    return std::filesystem::absolute(named).lexically_normal().string();
}

// Places in the file nvcc compiled are named by the path the user gave (a cached build names the path it
// was first compiled from, whose text is the same).
void rename_source(std::vector<kernel_listing>& kernels, const std::string& compiled, const std::string& shown) {
    for (auto& kernel : kernels)
        for (auto& block : kernel.blocks)
            if (block.at && block.at->file == compiled) block.at->file = shown;
}

std::string sass_of(const std::filesystem::path& nvdisasm, const std::filesystem::path& cubin) {
    const std::vector<std::string> argv{nvdisasm.string(), "--print-code", "--print-line-info-inline", cubin.string()};
    spdlog::debug("{}", fmt::join(argv, " "));
    const command_result run = run_command(argv, std::chrono::seconds(120));
    if (run.exit.timed_out || run.exit.signaled || run.exit.code != 0)
        throw environment_error(
            fmt::format("'{}' failed ({}): {}", fmt::join(argv, " "), run.exit.describe(), run.output.substr(0, 2000)));
    return run.output;
}

std::string kernel_names(const std::vector<kernel_listing>& kernels) {
    std::vector<std::string> names;
    for (const auto& kernel : kernels) names.push_back(kernel.name);
    return names.empty() ? "it has none" : fmt::format("its kernels: {}", fmt::join(names, "; "));
}

}  // namespace

std::filesystem::path find_nvdisasm() {
    return find_toolkit_program("nvdisasm");
}

std::filesystem::path asm_preflight(const std::filesystem::path& source, const asm_request& request) {
    if (is_python_source(source))
        throw usage_error(fmt::format(
            "{}: asm shows the SASS and PTX of CUDA sources (.cu); a Python solution's kernels are compiled by "
            "PyTorch or Triton when it runs, and are not offered",
            source.string()));
    return request.ptx ? std::filesystem::path() : find_nvdisasm();
}

asm_result disassemble(const problem_spec& spec, const std::filesystem::path& source, const asm_request& request,
                       const compiler_settings& compiler) {
    const std::filesystem::path nvdisasm = asm_preflight(source, request);
    asm_result result;
    result.ptx = request.ptx;
    result.arch = compiler.arch;
    result.tool = request.ptx ? "nvcc -ptx" : "nvdisasm";
    result.compile = compile_device_code(spec, source, request.ptx ? device_code::ptx : device_code::cubin, compiler);
    if (!result.compile.ok) return result;
    const std::string compiled = compiled_path(result.compile, source);
    std::vector<kernel_listing> kernels;
    if (request.ptx) {
        const auto text = read_file_text(result.compile.library);
        if (!text) throw std::runtime_error(fmt::format("{}: cannot read nvcc's PTX", result.compile.library.string()));
        kernels = parse_ptx(*text, compiled);
    } else {
        kernels = parse_sass(sass_of(nvdisasm, result.compile.library), compiled);
    }
    rename_source(kernels, compiled, source.string());
    result.kernels = select_kernels(kernels, request.kernel);
    if (result.kernels.empty() && !request.kernel.empty())
        throw usage_error(fmt::format("--kernel {}: no kernel of {} has that in its name ({})", request.kernel,
                                      source.string(), kernel_names(kernels)));
    return result;
}

}  // namespace gpujudge
