// The starter `gpujudge init` writes: LeetGPU's shape, for every shipped problem, and it compiles
// against the prototype the judge forces.
#include "base/temp_dir.hpp"
#include "catalog/catalog.hpp"
#include "catalog/starter.hpp"
#include "compile/compiler.hpp"
#include "process/child_process.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <fstream>

using namespace gpujudge;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::vector<problem_spec> shipped_problems() {
    std::vector<problem_spec> specs;
    for (const auto& dir : list_problems(GPUJUDGE_SOURCE_DIR)) specs.push_back(load_problem(dir));
    return specs;
}

std::string kernel_parameters(const problem_spec& spec) {
    std::string text;
    for (const auto& param : spec.params)
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", param.c_type(), param.name);
    return text;
}

std::string argument_names(const problem_spec& spec) {
    std::string text;
    for (const auto& param : spec.params) text += (text.empty() ? "" : ", ") + param.name;
    return text;
}

}  // namespace

TEST_CASE("the starter has a kernel stub, its launch from solve and the conventions", "[init]") {
    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");
    CHECK(starter_source(spec) ==
          "// Reduction: `gpujudge show reduction` prints the statement; `gpujudge submit reduction <this file>` "
          "judges it.\n"
          "//\n"
          "// - input, output are device pointers: the data is already on the GPU; read and write it from kernels.\n"
          "// - The outputs (output) arrive poisoned (filled with a garbage pattern): write every element.\n"
          "// - No need to synchronise at the end of solve: the judge does when solve returns.\n"
          "#include <cuda_runtime.h>\n"
          "\n"
          "__global__ void reduction_kernel(const float* input, float* output, int N) {\n"
          "    // TODO: compute the outputs; one thread per element of the grid below is a start.\n"
          "}\n"
          "\n"
          "extern \"C\" void solve(const float* input, float* output, int N) {\n"
          "    const int threadsPerBlock = 256;\n"
          "    const int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;\n"
          "    reduction_kernel<<<blocksPerGrid, threadsPerBlock>>>(input, output, N);\n"
          "}\n");
}

TEST_CASE("every problem's starter takes its parameters and sizes its grid by its output or its first size scalar",
          "[init]") {
    for (const problem_spec& spec : shipped_problems()) {
        INFO(spec.slug);
        const std::string text = starter_source(spec);
        const std::string kernel = spec.slug + "_kernel";
        // An empty kernel never writes the poisoned outputs: the starter fails the first example.
        CHECK(contains(text, fmt::format("__global__ void {}({}) {{\n    // TODO", kernel, kernel_parameters(spec))));
        CHECK(contains(text, "TODO: compute the outputs; one thread per element of the grid below is a start.\n}\n"));
        CHECK(contains(text, spec.prototype() + " {\n"));
        CHECK(contains(text,
                       fmt::format("    {}<<<blocksPerGrid, threadsPerBlock>>>({});\n", kernel, argument_names(spec))));
        const std::optional<std::string> size = launch_size(spec);
        REQUIRE(size);
        CHECK(contains(text, fmt::format("blocksPerGrid = ({} + threadsPerBlock - 1) / threadsPerBlock;", *size)));
    }
    // One thread per element of an output of two extents: all of them, not one per row.
    const auto batch_normalization = load_problem(GPUJUDGE_SOURCE_DIR "/problems/batch_normalization");
    CHECK(contains(starter_source(batch_normalization),
                   "    const int blocksPerGrid = (N * C + threadsPerBlock - 1) / threadsPerBlock;\n"));
    CHECK(contains(starter_source(batch_normalization, "triton"), "grid = (triton.cdiv(N * C, BLOCK_SIZE),)\n"));
    CHECK(launch_size(load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction")) == "N");  // an output of one extent
    const auto size_of = [](const char* slug) {
        return launch_size_scalar(load_problem(std::string(GPUJUDGE_SOURCE_DIR "/problems/") + slug)).value_or("");
    };
    CHECK(size_of("monte_carlo_integration") == "n_samples");  // after the float scalars a and b
    CHECK(size_of("matrix_row_sum") == "rows");
    CHECK(size_of("subarray_sum_2d") == "N");
}

// One nvcc run over every starter, each behind the header compile_solution forces (its solve
// renamed so that all of them fit in one translation unit): seconds, not a minute of nvcc calls.
TEST_CASE("every problem's starter compiles against the forced prototype", "[init]") {
    temp_dir work("starter-test");
    std::string unit;
    for (const problem_spec& spec : shipped_problems()) {
        const std::string solve = "solve_" + spec.slug;
        unit += fmt::format("{}#define solve {}\n{}#undef solve\n", forced_header(spec, solve), solve,
                            starter_source(spec));
    }
    std::ofstream(work.path() / "starters.cu") << unit;
    const compiler_settings settings;
    const command_result result =
        run_command({settings.nvcc, "-c", "-arch=" + settings.arch, "-o", (work.path() / "starters.o").string(),
                     (work.path() / "starters.cu").string()},
                    std::chrono::seconds(300));
    INFO(result.output);
    CHECK(result.exit.code == 0);
    CHECK_FALSE(result.exit.signaled);
}

TEST_CASE("Python starters have LeetGPU's signature and parse as Python, for every problem", "[init][python]") {
    const temp_dir work("starters");
    for (const auto& spec : shipped_problems()) {
        for (const char* language : {"pytorch", "triton"}) {
            const std::string text = starter_source(spec, language);
            CHECK(contains(text, "def solve(" + spec.params.front().name + ": torch.Tensor"));
            CHECK(contains(text, "import torch\n"));
            CHECK(contains(text, "@triton.jit") == (std::string(language) == "triton"));
            const auto file = work.path() / fmt::format("{}_{}.py", spec.slug, language);
            std::ofstream(file) << text;
            // Parsed, not run: torch and triton need not be installed here.
            const auto parsed = run_command(
                {"/usr/bin/python3", "-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())", file.string()},
                std::chrono::seconds(30));
            CHECK(parsed.exit.code == 0);
        }
    }
}

TEST_CASE("the languages init and the page offer: their extensions, and a file's language", "[init][python]") {
    CHECK(solution_languages() == std::vector<std::string>{"cuda", "pytorch", "triton"});
    CHECK(language_extension("cuda") == ".cu");
    CHECK(language_extension("pytorch") == ".py");
    CHECK(language_extension("triton") == ".py");
    const temp_dir work("languages");
    std::ofstream(work.path() / "torch_only.py") << "import torch\n\ndef solve(input, output, N):\n    pass\n";
    std::ofstream(work.path() / "kernel.py") << "import torch\nimport triton.language as tl\n";
    CHECK(language_of_source(work.path() / "torch_only.py") == "pytorch");
    CHECK(language_of_source(work.path() / "kernel.py") == "triton");
    CHECK(language_of_source(work.path() / "mine.cu") == "cuda");
    CHECK(language_of_source(work.path() / "fake.cpp") == "cuda");  // the host backend's stand-in for CUDA
    CHECK(language_of_source(GPUJUDGE_SOURCE_DIR "/solutions/reduction/triton.py") == "triton");
    CHECK(language_of_source(GPUJUDGE_SOURCE_DIR "/solutions/reduction/pytorch.py") == "pytorch");
}

namespace {

// A sum whose parameters are named as the starters' own variables are.
problem_spec names_taken_by_the_starters() {
    return parse_problem(R"(title: Names Taken
slug: names_taken
difficulty: easy
signature:
  - {name: grid, type: const float*, role: in, shape: [threadsPerBlock]}
  - {name: pid, type: float*, role: out, shape: [1]}
  - {name: threadsPerBlock, type: int}
constraints: {threadsPerBlock: [1, 1000]}
inputs: {grid: {uniform: [-1, 1]}}
tolerance: {pid: {atol: 1e-3, rtol: 1e-5}}
metrics: {bytes: "4 * threadsPerBlock + 4"}
tests:
  examples:
    - {name: example, scalars: {threadsPerBlock: 2}, inputs: {grid: [1, 2]}, expected: {pid: [3]}}
  functional:
    - {name: small, scalars: {threadsPerBlock: 5}}
)",
                         "names_taken.yaml");
}

}  // namespace

TEST_CASE("a starter's own names give way to solve's parameters of those names", "[init]") {
    const problem_spec spec = names_taken_by_the_starters();
    const std::string cuda = starter_source(spec);
    CHECK(contains(cuda, "const int threadsPerBlock_ = 256;\n"));
    CHECK(contains(cuda, "(threadsPerBlock + threadsPerBlock_ - 1) / threadsPerBlock_;"));
    temp_dir work("starter-names");
    std::ofstream(work.path() / "starter.cu") << forced_header(spec, "solve") << cuda;
    const compiler_settings settings;
    const command_result compiled =
        run_command({settings.nvcc, "-c", "-arch=" + settings.arch, "-o", (work.path() / "starter.o").string(),
                     (work.path() / "starter.cu").string()},
                    std::chrono::seconds(300));
    INFO(compiled.output);
    CHECK(compiled.exit.code == 0);
    const std::string triton = starter_source(spec, "triton");
    CHECK(contains(triton,
                   "def names_taken_kernel(grid_ptr, pid_ptr, threadsPerBlock, BLOCK_SIZE: tl.constexpr):\n"
                   "    pid_ = tl.program_id(0)\n"));
    CHECK(contains(triton,
                   "    grid_ = (triton.cdiv(threadsPerBlock, BLOCK_SIZE),)\n"
                   "    names_taken_kernel[grid_](grid, pid, threadsPerBlock, BLOCK_SIZE=BLOCK_SIZE)\n"));
    // compile(), not ast.parse: a name given twice in a def is caught when the code is compiled.
    std::ofstream(work.path() / "starter.py") << triton;
    const auto parsed =
        run_command({"/usr/bin/python3", "-c", "import sys; compile(open(sys.argv[1]).read(), 'f', 'exec')",
                     (work.path() / "starter.py").string()},
                    std::chrono::seconds(30));
    INFO(parsed.output);
    CHECK(parsed.exit.code == 0);
}

TEST_CASE("a starter says an in-out buffer arrives holding its input, and hints at a real output's name", "[init]") {
    const problem_spec spec = parse_problem(R"(title: Scale
slug: scale
difficulty: easy
signature:
  - {name: x, type: float*, role: inout, shape: [N]}
  - {name: alpha, type: float}
  - {name: N, type: int}
constraints: {N: [1, 1000], alpha: [-2, 2]}
inputs: {x: {uniform: [-1, 1]}}
tolerance: {x: {atol: 1e-5, rtol: 1e-5}}
metrics: {bytes: "8 * N"}
tests:
  examples:
    - {name: example, scalars: {N: 2, alpha: 2}, inputs: {x: [1, 2]}, expected: {x: [2, 4]}}
  functional:
    - {name: small, scalars: {N: 5, alpha: 1}}
)",
                                            "scale.yaml");
    const std::string cuda = starter_source(spec);
    CHECK(contains(cuda, "// - x arrives holding its input: read it, and overwrite every element in place.\n"));
    CHECK_FALSE(contains(cuda, "poisoned"));
    const std::string pytorch = starter_source(spec, "pytorch");
    CHECK(contains(pytorch, "# - x arrives holding its input: read it, and overwrite every element in place.\n"));
    CHECK(contains(pytorch, "e.g. x.copy_(...)"));
}
