// `path` and `asm` as a user runs them: the shipped solutions' path, a fixture home with measurements,
// steps declared wrong (validate and path both refuse them), and asm --ptx through the real nvcc, whose
// SASS counterpart needs nvdisasm (exit 13 without it).
#include "base/exit_codes.hpp"
#include "base/temp_dir.hpp"
#include "cli_test_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

const std::string kSource = GPUJUDGE_SOURCE_DIR;
const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kTinySum = kFixtures + "/problems/tiny_sum";
const std::string kFloat4 = kSource + "/solutions/reduction/vectorized_float4.cu";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

command_result run_gpujudge(const std::vector<std::string>& args) {
    return gpujudge_env({}, args);
}

}  // namespace

TEST_CASE("path lists a shipped problem's steps in order, naive to fastest", "[cli][path]") {
    const auto result = run_gpujudge({"--home", kSource, "path", "reduction"});
    CHECK(result.exit.code == exit_accepted);
    INFO(result.output);
    CHECK(result.output.rfind("Reduction (reduction): 4 steps, naive to fastest\n", 0) == 0);
    const auto first = result.output.find("   1  shared_memory_tree.cu ");
    const auto second = result.output.find("   2  warp_shuffle.cu ");
    const auto third = result.output.find("   3  cooperative_groups.cu ");
    const auto fourth = result.output.find("   4  vectorized_float4.cu ");
    CHECK(first < second);
    CHECK(second < third);
    CHECK(third < fourth);
    CHECK(fourth != std::string::npos);
    CHECK(
        contains(result.output, "      bandwidth-bound single pass: 16-byte float4 loads, several independent loads"));

    const auto json = run_gpujudge({"--home", kSource, "path", "reduction", "--json"});
    CHECK(json.exit.code == exit_accepted);
    const auto object = nlohmann::json::parse(json.output);
    REQUIRE(object.at("steps").size() == 4);
    CHECK(object.at("steps").at(3).at("file") == "vectorized_float4.cu");
    CHECK(object.at("steps").at(0).at("step") == 1);
    CHECK(object.at("test") == "N = 100M");
    CHECK(object.at("measurements").at("file") == "solutions/measured-h100.json");
}

TEST_CASE("every shipped problem has a path, and its last step is not the baseline", "[cli][path]") {
    for (const auto& dir : std::filesystem::directory_iterator(kSource + "/problems")) {
        if (!std::filesystem::exists(dir.path() / "problem.yaml")) continue;
        const std::string slug = dir.path().filename();
        const auto result = run_gpujudge({"--home", kSource, "path", slug, "--json"});
        INFO(slug << ": " << result.output);
        REQUIRE(result.exit.code == exit_accepted);
        const auto steps = nlohmann::json::parse(result.output).at("steps");
        CHECK(steps.size() >= 1);
        for (const auto& step : steps) {
            CHECK(step.at("file").get<std::string>().find("baseline") == std::string::npos);
            CHECK_FALSE(step.at("summary").get<std::string>().empty());
        }
    }
}

TEST_CASE("path shows the checked-in figures, and 'not measured' where they have none", "[cli][path]") {
    const auto result = run_gpujudge({"--home", kFixtures + "/path_home", "path", kTinySum});
    CHECK(result.exit.code == exit_accepted);
    // The whole text is test_path.cpp's (path_text); here, that the command prints it from the files.
    CHECK(contains(
        result.output,
        "figures: NVIDIA H100 80GB HBM3 at N = 100000, ceiling 3072 GB/s, from solutions/measured-h100.json\n"));
    CHECK(contains(result.output, "   2  block_tree.cu                          6.2      64        2.1 %      1.27\n"));
    CHECK(contains(result.output, "   3  warp_shuffle.cu                  not measured\n"));
    const auto json = run_gpujudge({"--home", kFixtures + "/path_home", "path", kTinySum, "--json"});
    const auto object = nlohmann::json::parse(json.output);
    CHECK(object.at("measurements").at("device") == "NVIDIA H100 80GB HBM3");
    CHECK(object.at("steps").at(0).at("measured").at("percent_of_peak") == Approx(0.2));
    CHECK(object.at("steps").at(2).at("measured").is_null());
}

TEST_CASE("validate refuses a statement that is no text file and a second baseline, naming each file and line",
          "[cli][path]") {
    const temp_dir home("two-baselines");
    const auto problem = home.path() / "problems" / "tiny_sum";
    std::filesystem::create_directories(problem.parent_path());
    std::filesystem::copy(kTinySum, problem, std::filesystem::copy_options::recursive);
    std::filesystem::remove(problem / "statement.md");
    std::filesystem::create_directory(problem / "statement.md");
    const auto solutions = home.path() / "solutions" / "tiny_sum";
    std::filesystem::create_directories(solutions);
    const std::string kernel = "extern \"C\" void solve(const float*, float*, int) {}\n";
    std::ofstream(solutions / "a.cu") << "// expect: wrong_answer\n// role: baseline\n" << kernel;
    std::ofstream(solutions / "b.cu") << "// expect: wrong_answer\n// Technique: none.\n// role: baseline\n" << kernel;
    const auto validate = run_gpujudge({"--home", home.path().string(), "validate", "tiny_sum"});
    INFO(validate.output);
    CHECK(validate.exit.code == exit_invalid_problem);
    CHECK(contains(validate.output, "  " + (problem / "statement.md").string() +
                                        ": cannot read the file (missing, not a regular file, or over 1 GiB)\n"));
    CHECK(contains(validate.output, "  " + (solutions / "b.cu").string() + ":3: a second baseline: " +
                                        (solutions / "a.cu").string() + ":2 is the problem's baseline\n"));
    std::filesystem::remove(problem / "statement.md");
    std::ofstream(problem / "statement.md") << std::string("# Tiny Sum\0\x01\x02", 13);
    const auto binary = run_gpujudge({"--home", home.path().string(), "validate", "tiny_sum"});
    CHECK(contains(binary.output, "  " + (problem / "statement.md").string() + ": not text: it holds NUL bytes\n"));
}

TEST_CASE("steps declared wrong: validate and path name each file and line", "[cli][path]") {
    const std::string home = kFixtures + "/bad_steps_home";
    const std::string dir = home + "/solutions/tiny_sum/";
    const std::string expected =
        dir + "spelled_out.cu:2: 'step:' takes a whole number from 1 (its place on the path), not 'two'\n" + dir +
        "first.cu:2: step 1 is declared twice: " + dir + "also_first.cu:2 declares it too\n" + dir +
        "third.cu:2: step 3 follows no step 2: the steps are numbered 1, 2, 3, ... without gaps\n";
    const auto path = run_gpujudge({"--home", home, "path", kTinySum});
    CHECK(path.exit.code == exit_invalid_problem);
    CHECK(path.output == expected);

    const auto validate = run_gpujudge({"--home", home, "validate", "tiny_sum"});
    CHECK(validate.exit.code == exit_invalid_problem);
    INFO(validate.output);
    CHECK(contains(validate.output, "FAIL  tiny_sum\n"));
    CHECK(contains(validate.output, "  " + dir +
                                        "spelled_out.cu:2: 'step:' takes a whole number from 1 (its place on the "
                                        "path), not 'two'\n"));
    CHECK(contains(validate.output,
                   "  " + dir + "first.cu:2: step 1 is declared twice: " + dir + "also_first.cu:2 declares it too\n"));
    CHECK(contains(validate.output, "  " + dir +
                                        "third.cu:2: step 3 follows no step 2: the steps are numbered 1, 2, 3, ... "
                                        "without gaps\n"));
}

TEST_CASE("asm --ptx: a shipped solution's PTX, each source line above the instructions it produced", "[cli][asm]") {
    const auto result = run_gpujudge({"--home", kSource, "asm", "reduction", kFloat4, "--ptx", "--arch", "sm_80"});
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(result.output.rfind("problem  Reduction (reduction)\nsource   " + kFloat4 +
                                  "\ncode     PTX for sm_80 (nvcc -ptx -lineinfo)\ncompile  ok",
                              0) == 0);
    CHECK(contains(result.output,
                   "\nkernel (anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, float*, int)\n"));
    // The four streamed 16-byte loads of the unrolled loop sit under the line that wrote them.
    const std::string loads_line =
        "  vectorized_float4.cu:48  for (int u = 0; u < kUnroll; ++u) x[u] = __ldcs(input4 + v + u * kThreads);  "
        "// streamed: evict-first\n";
    const auto at = result.output.find(loads_line);
    REQUIRE(at != std::string::npos);
    const auto next = result.output.find("\n  vectorized_float4.cu:", at + loads_line.size());
    const std::string block = result.output.substr(at, next - at);
    std::size_t loads = 0;
    for (auto pos = block.find("ld.global.cs.v4.f32"); pos != std::string::npos;
         pos = block.find("ld.global.cs.v4.f32", pos + 1))
        ++loads;
    CHECK(loads == 4);

    const auto json = run_gpujudge({"--home", kSource, "asm", "reduction", kFloat4, "--ptx", "--json"});
    CHECK(json.exit.code == exit_accepted);
    const auto object = nlohmann::json::parse(json.output);
    CHECK(object.at("kind") == "ptx");
    REQUIRE(object.at("kernels").size() == 1);
    bool found = false;
    for (const auto& block_json : object.at("kernels").at(0).at("blocks"))
        if (block_json.at("line") == 48) {
            found = true;
            CHECK(block_json.at("file") == kFloat4);
            CHECK(contains(block_json.at("source").get<std::string>(), "__ldcs(input4 + v + u * kThreads)"));
        }
    CHECK(found);
}

TEST_CASE("asm: --kernel picks kernels, a wrong signature is a compile error, --arch is checked", "[cli][asm]") {
    const std::string two_kernels = kSource + "/solutions/dot_product/warp_shuffle.cu";
    const auto one =
        run_gpujudge({"--home", kSource, "asm", "dot_product", two_kernels, "--ptx", "--kernel", "final_sum"});
    CHECK(one.exit.code == exit_accepted);
    CHECK(contains(one.output, "\nkernel (anonymous namespace)::final_sum_kernel(float const*, float*, int)\n"));
    CHECK_FALSE(contains(one.output, "partial_dot_kernel"));
    const auto none =
        run_gpujudge({"--home", kSource, "asm", "dot_product", two_kernels, "--ptx", "--kernel", "histogram"});
    CHECK(none.exit.code == exit_usage);
    CHECK(none.output ==
          "gpujudge: --kernel histogram: no kernel of " + two_kernels +
              " has that in its name (its kernels: (anonymous namespace)::partial_dot_kernel(float "
              "const*, float const*, float*, int); (anonymous namespace)::final_sum_kernel(float const*, "
              "float*, int))\n");
    const auto wrong = run_gpujudge({"--home", kSource, "asm", "reduction", two_kernels, "--ptx"});
    CHECK(wrong.exit.code == exit_compile_error);
    CHECK(contains(wrong.output, "compile  failed\n"));
    CHECK(contains(wrong.output,
                   "The expected signature is:\n    extern \"C\" void solve(const float* input, float* "
                   "output, int N)\n"));
    const auto arch = run_gpujudge({"--home", kSource, "asm", "reduction", kFloat4, "--ptx", "--arch", "90"});
    CHECK(arch.exit.code == exit_usage);
    CHECK(arch.output == "gpujudge: --arch 90: not an architecture like sm_90, sm_89 or sm_90a\n");
    // Well formed but unknown to this nvcc: a usage error naming what it knows, not nvcc's compile error.
    const auto unknown = run_gpujudge({"--home", kSource, "asm", "reduction", kFloat4, "--ptx", "--arch", "sm_999"});
    CHECK(unknown.exit.code == exit_usage);
    CHECK(contains(unknown.output, "gpujudge: --arch sm_999: nvcc does not compile for it; it knows sm_"));
    CHECK(contains(unknown.output, "sm_90, "));
    const auto feature = run_gpujudge({"--home", kSource, "asm", "reduction", kFloat4, "--ptx", "--arch", "sm_90a"});
    CHECK(feature.exit.code == exit_accepted);
    CHECK(contains(feature.output, "PTX for sm_90a"));
}

TEST_CASE("asm without nvdisasm says where it looked, with exit code 13, and refuses a Python file", "[cli][asm]") {
    const auto result = gpujudge_env({"PATH=/usr/bin:/bin", "CUDA_HOME=/nonexistent"},
                                     {"--home", kSource, "asm", "reduction", kFloat4});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output ==
          "gpujudge: nvdisasm not found on PATH, in /nonexistent/bin or in /usr/local/cuda/bin: gpujudge "
          "disassembles a compiled submission's machine code with it; install the CUDA Toolkit "
          "(https://developer.nvidia.com/cuda-downloads), then add its bin folder to PATH or set CUDA_HOME to the "
          "folder it is installed in\n");
    const std::string python = kSource + "/solutions/reduction/pytorch.py";
    const auto refused = run_gpujudge({"--home", kSource, "asm", "reduction", python, "--ptx"});
    CHECK(refused.exit.code == exit_usage);
    CHECK(refused.output == "gpujudge: " + python +
                                ": asm shows the SASS and PTX of CUDA sources (.cu); a Python solution's kernels are "
                                "compiled by PyTorch or Triton when it runs, and are not offered\n");
}

TEST_CASE("asm: the SASS of nvcc's cubin through nvdisasm, here a stand-in that checks the cubin", "[cli][asm]") {
    // tests/fixtures/disasm/bin/nvdisasm refuses anything but a cubin holding reduce_float4_kernel, asked
    // for code with inline line info, and prints the canned listing with this file's path in it (so the
    // line numbers are the listing's, the text beside them this file's).
    // A cache of its own: a cubin cached from another path (the page's copy of this file) names that
    // path in its line info, which the stand-in, printing kFloat4's, would not match.
    const temp_dir cache("asm-cache");
    const char* path = std::getenv("PATH");
    const auto result =
        gpujudge_env({"PATH=" + kFixtures + "/disasm/bin:" + (path ? path : "/usr/bin:/bin"),
                      "FAKE_NVDISASM_SOURCE=" + kFloat4, "GPUJUDGE_CACHE_DIR=" + cache.path().string()},
                     {"--home", kSource, "asm", "reduction", kFloat4, "--arch", "sm_90", "--kernel", "reduce_float4"});
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(result.output.rfind("problem  Reduction (reduction)\nsource   " + kFloat4 +
                                  "\ncode     SASS for sm_90 (nvdisasm on nvcc's cubin, source lines from -lineinfo)\n"
                                  "compile  ok",
                              0) == 0);
    CHECK(contains(result.output,
                   "\nkernel (anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, "
                   "float*, int)\n  (no source line)\n        0000  LDC R1, c[0x0][0x28] ;\n"));
    CHECK(contains(result.output,
                   "\n  vectorized_float4.cu:47  #pragma unroll\n      .L_x_1:\n        0070  "
                   "LDG.E.EF.128 R4, desc[UR6][R8.64] ;\n"));
    CHECK_FALSE(contains(result.output, "\ndevice function "));  // warp_sum, left out by --kernel
}
