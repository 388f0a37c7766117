#include "catalog/starter.hpp"

#include "toolkit/python_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace gpujudge {

namespace {

// "<slug>_kernel", made a C identifier whatever the folder is called.
std::string kernel_name(const std::string& slug) {
    std::string name = slug;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name.insert(0, "k_");
    return name + "_kernel";
}

// A name for one of the starter's own: `base`, with _ added until no parameter of solve has it.
std::string free_name(const problem_spec& spec, std::string base) {
    while (spec.find_parameter(base)) base += '_';
    return base;
}

std::string joined_names(const problem_spec& spec, bool (*keep)(const parameter&)) {
    std::string names;
    for (const auto& param : spec.params)
        if (keep(param)) names += (names.empty() ? "" : ", ") + param.name;
    return names;
}

std::string kernel_parameters(const problem_spec& spec) {
    std::string text;
    for (const auto& param : spec.params)
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", param.c_type(), param.name);
    return text;
}

// What the outputs hold when solve is called, one line each kind, after `mark`: outputs the judge's
// poison, in-out buffers their input (to be overwritten in place).
std::string output_lines(const problem_spec& spec, const std::string& mark) {
    const std::string outputs = joined_names(spec, [](const parameter& p) { return p.role == param_role::out; });
    const std::string updated = joined_names(spec, [](const parameter& p) { return p.role == param_role::inout; });
    std::string text;
    if (!outputs.empty())
        text += fmt::format(
            "{} - The outputs ({}) arrive poisoned (filled with a garbage pattern): write every "
            "element.\n",
            mark, outputs);
    const auto inouts = std::count_if(spec.params.begin(), spec.params.end(),
                                      [](const parameter& p) { return p.role == param_role::inout; });
    if (!updated.empty())
        text += fmt::format("{} - {} {} holding {} input: read it, and overwrite every element in place.\n", mark,
                            updated, inouts == 1 ? "arrives" : "arrive", inouts == 1 ? "its" : "their");
    return text;
}

std::string conventions(const problem_spec& spec) {
    const std::string pointers = joined_names(spec, [](const parameter& p) { return p.is_pointer; });
    return fmt::format(
        "// {}: `gpujudge show {}` prints the statement; `gpujudge submit {} <this file>` judges it.\n"
        "//\n"
        "// - {} are device pointers: the data is already on the GPU; read and write it from kernels.\n"
        "{}"
        "// - No need to synchronise at the end of solve: the judge does when solve returns.\n",
        spec.title, spec.slug, spec.slug, pointers, output_lines(spec, "//"));
}

std::string launch(const problem_spec& spec, const std::string& kernel) {
    const std::optional<std::string> size = launch_size(spec);
    const std::string threads = free_name(spec, "threadsPerBlock"), blocks = free_name(spec, "blocksPerGrid");
    return fmt::format(
        "    const int {0} = 256;\n"
        "    const int {1} = {2};\n"
        "    {3}<<<{1}, {0}>>>({4});\n",
        threads, blocks, size ? fmt::format("({0} + {1} - 1) / {1}", *size, threads) : "1", kernel,
        joined_names(spec, [](const parameter&) { return true; }));
}

std::string python_conventions(const problem_spec& spec) {
    const std::string pointers = joined_names(spec, [](const parameter& p) { return p.is_pointer; });
    return fmt::format(
        "# {}: `gpujudge show {}` prints the statement; `gpujudge submit {} <this file>` judges it.\n"
        "#\n"
        "# - {} are 1-D tensors on the GPU over the judge's buffers (multi-dimensional data row-major).\n"
        "{}"
        "# - Write in place (what solve returns is ignored).\n",
        spec.title, spec.slug, spec.slug, pointers, output_lines(spec, "#"));
}

std::string pytorch_starter(const problem_spec& spec) {
    std::string written = "output";  // the first buffer solve writes, as the hint's example
    for (const auto& param : spec.params)
        if (param.is_output()) {
            written = param.name;
            break;
        }
    return fmt::format(
        "{}import torch\n\n\n"
        "{}:\n"
        "    # TODO: compute the outputs with torch operations, e.g. {}.copy_(...).\n"
        "    pass\n",
        python_conventions(spec), python_signature(spec), written);
}

std::string triton_starter(const problem_spec& spec) {
    const std::string kernel = free_name(spec, kernel_name(spec.slug));
    const std::string block = free_name(spec, "BLOCK_SIZE"), pid = free_name(spec, "pid"),
                      offsets = free_name(spec, "offsets"), grid = free_name(spec, "grid");
    std::string kernel_params;
    for (const auto& param : spec.params)
        kernel_params += (param.is_pointer ? free_name(spec, param.name + "_ptr") : param.name) + ", ";
    std::string launch_args;
    for (const auto& param : spec.params) launch_args += param.name + ", ";
    const std::optional<std::string> size = launch_size(spec);
    return fmt::format(
        "{0}import torch\n"
        "import triton\n"
        "import triton.language as tl\n\n\n"
        "@triton.jit\n"
        "def {1}({2}{3}: tl.constexpr):\n"
        "    {4} = tl.program_id(0)\n"
        "    {5} = {4} * {3} + tl.arange(0, {3})\n"
        "    # TODO: tl.load with a mask for the last block, compute, tl.store the outputs.\n\n\n"
        "{6}:\n"
        "    {3} = 1024\n"
        "    {7} = ({8},)\n"
        "    {1}[{7}]({9}{3}={3})\n",
        python_conventions(spec), kernel, kernel_params, block, pid, offsets, python_signature(spec), grid,
        size ? fmt::format("triton.cdiv({}, {})", *size, block) : "1", launch_args);
}

}  // namespace

std::string python_signature(const problem_spec& spec) {
    std::string text;
    for (const auto& param : spec.params)
        text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", param.name,
                            param.is_pointer                  ? "torch.Tensor"
                            : param.type == element_type::i32 ? "int"
                                                              : "float");
    return fmt::format("def solve({})", text);
}

std::string starter_source(const problem_spec& spec, const std::string& language) {
    if (language == "pytorch") return pytorch_starter(spec);
    if (language == "triton") return triton_starter(spec);
    return starter_source(spec);
}

const std::vector<std::string>& solution_languages() {
    static const std::vector<std::string> languages = {"cuda", "pytorch", "triton"};
    return languages;
}

std::string language_extension(const std::string& language) {
    return language == "cuda" ? ".cu" : ".py";
}

std::string language_of_source(const std::filesystem::path& source) {
    if (!is_python_source(source)) return "cuda";
    return imports_triton(source) ? "triton" : "pytorch";
}

std::optional<std::string> launch_size_scalar(const problem_spec& spec) {
    for (const auto& scalar : spec.params) {
        if (scalar.is_pointer || scalar.type != element_type::i32) continue;
        for (const auto& pointer : spec.params)
            for (const auto& extent : pointer.shape)
                if (variables_of(extent).count(scalar.name)) return scalar.name;
    }
    return std::nullopt;
}

std::optional<std::string> launch_size(const problem_spec& spec) {
    const auto output = std::find_if(spec.params.begin(), spec.params.end(),
                                     [](const parameter& param) { return param.is_pointer && param.is_output(); });
    if (output == spec.params.end() || output->shape.size() < 2) return launch_size_scalar(spec);
    std::string count;
    for (const auto& extent : output->shape) {
        const bool plain = std::all_of(extent.begin(), extent.end(),
                                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
        count += (count.empty() ? "" : " * ") + (plain ? extent : "(" + extent + ")");
    }
    return count;
}

std::string starter_source(const problem_spec& spec) {
    const std::string kernel = free_name(spec, kernel_name(spec.slug));
    return fmt::format(
        "{}#include <cuda_runtime.h>\n\n"
        "__global__ void {}({}) {{\n"
        "    // TODO: compute the outputs; one thread per element of the grid below is a start.\n"
        "}}\n\n"
        "{} {{\n"
        "{}}}\n",
        conventions(spec), kernel, kernel_parameters(spec), spec.prototype(), launch(spec, kernel));
}

}  // namespace gpujudge
