// The gpujudge program as a user runs it: exit codes and messages.
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/temp_dir.hpp"
#include "process/child_process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

command_result gpujudge_cli(std::vector<std::string> args) {
    args.insert(args.begin(), {GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never", "--home", GPUJUDGE_SOURCE_DIR});
    return run_command(args, std::chrono::seconds(300));
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

}  // namespace

TEST_CASE("list shows the problems", "[cli]") {
    const auto result = gpujudge_cli({"list"});
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "reduction"));
    CHECK(contains(result.output, "dot_product"));
}

TEST_CASE("show prints the exact signature", "[cli]") {
    const auto result = gpujudge_cli({"show", "dot_product"});
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "extern \"C\" void solve(const float* A, const float* B, float* result, int N)"));
}

TEST_CASE("show renders the prose once, then signature, constraints and examples from problem.yaml", "[cli][show]") {
    const auto result = gpujudge_cli({"show", "batch_normalization"});
    CHECK(result.exit.code == exit_accepted);
    const std::string& text = result.output;
    for (const char* heading : {"## Signature\n", "## Constraints\n", "## Examples\n", "## Accuracy\n"}) {
        INFO(heading);
        const auto first = text.find(heading);
        CHECK(first != std::string::npos);
        CHECK(text.find(heading, first + 1) == std::string::npos);
    }
    // The scalars keep the signature's order (N, C, eps), not the alphabet's.
    CHECK(contains(text, "- 1 ≤ N ≤ 10000\n- 1 ≤ C ≤ 1024\n- 1e-8 ≤ eps ≤ 0.1\n"));
    CHECK(contains(text,
                   "example 1:\n  input = [[1, -1], [2, -1], [3, 5], [6, 1]]\n  gamma = [1, 2]\n"
                   "  beta = [0, 0.5]\n  N = 4\n  C = 2\n  eps = 1e-05\n"));
    // Every digit of problem.yaml's expected values: no rounding to six significant digits.
    CHECK(contains(
        text,
        "  → output = [[-1.0690434, -1.13299179], [-0.534521699, -1.13299179], [0, 3.76598358], [1.60356522, 0.5]]\n"));
    const auto signature = text.find(
        "## Signature\n  extern \"C\" void solve(const float* input, const float* gamma, "
        "const float* beta, float* output, int N, int C, float eps)\n");
    CHECK(signature != std::string::npos);
    CHECK(text.find("## Accuracy\n") < signature);  // the prose comes first
}

TEST_CASE("init writes a starter that compiles against the signature, and never overwrites", "[cli]") {
    const std::string path = GPUJUDGE_TEST_CACHE "/starter.cu";
    std::filesystem::remove(path);
    CHECK(gpujudge_cli({"init", "reduction", path}).exit.code == exit_accepted);
    std::ifstream file(path);
    const std::string text((std::istreambuf_iterator<char>(file)), {});
    CHECK(contains(text, "extern \"C\" void solve(const float* input, float* output, int N) {"));
    const auto again = gpujudge_cli({"init", "reduction", path});
    CHECK(again.exit.code == exit_usage);
    CHECK(contains(again.output, "already exists"));
    // The starter compiles; on a machine without a GPU the verdict stops at no_device.
    const auto submitted = gpujudge_cli({"submit", "reduction", path});
    CHECK(submitted.exit.code != exit_compile_error);
}

TEST_CASE("init into a folder writes the problem's starter there, as cp would", "[cli]") {
    const std::filesystem::path dir = GPUJUDGE_TEST_CACHE "/init-folder";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto written = gpujudge_cli({"init", "reduction", dir.string()});
    CHECK(written.exit.code == exit_accepted);
    CHECK(written.output == "wrote " + (dir / "reduction.cu").string() + "\n");
    CHECK(std::filesystem::is_regular_file(dir / "reduction.cu"));
    const auto again = gpujudge_cli({"init", "reduction", dir.string()});
    CHECK(again.exit.code == exit_usage);
    CHECK(again.output ==
          "gpujudge: " + (dir / "reduction.cu").string() + " already exists (use --force to overwrite it)\n");
    CHECK(gpujudge_cli({"init", "reduction", dir.string(), "--force"}).exit.code == exit_accepted);
}

TEST_CASE("show prints solve's Python signature beside the C one", "[cli]") {
    const auto show = gpujudge_cli({"show", "reduction"});
    CHECK(show.exit.code == exit_accepted);
    CHECK(contains(show.output,
                   "## Signature\n  extern \"C\" void solve(const float* input, float* output, int N)\n"
                   "  def solve(input: torch.Tensor, output: torch.Tensor, N: int)  # a .py solution "
                   "(PyTorch, Triton)\n\n"));
}

TEST_CASE("init takes the starter's language from the path, and refuses a --lang the path contradicts", "[cli]") {
    const std::filesystem::path dir = GPUJUDGE_TEST_CACHE "/init-languages";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    CHECK(gpujudge_cli({"init", "reduction", (dir / "foo.py").string()}).exit.code == exit_accepted);
    const std::string python = read_file_text(dir / "foo.py").value_or("");
    CHECK(contains(python, "def solve(input: torch.Tensor, output: torch.Tensor, N: int)"));
    CHECK_FALSE(contains(python, "__global__"));
    const auto refused = [&](const std::string& language, const std::string& file) {
        const auto result = gpujudge_cli({"init", "reduction", (dir / file).string(), "--lang", language});
        CHECK(result.exit.code == exit_usage);
        CHECK_FALSE(std::filesystem::exists(dir / file));
        return result.output;
    };
    CHECK(refused("pytorch", "x.cu") == "gpujudge: " + (dir / "x.cu").string() +
                                            ": a pytorch starter goes in a .py file: name it " +
                                            (dir / "x.py").string() + ", or leave out --lang\n");
    CHECK(refused("cuda", "y.py") == "gpujudge: " + (dir / "y.py").string() +
                                         ": a cuda starter goes in a .cu file: name it " + (dir / "y.cu").string() +
                                         ", or leave out --lang\n");
    CHECK(gpujudge_cli({"init", "reduction", (dir / "z.py").string(), "--lang", "triton"}).exit.code == exit_accepted);
}

TEST_CASE("user mistakes on the command line are usage errors", "[cli]") {
    auto missing = gpujudge_cli({"submit", "reduction", "no_such_file.cu"});
    CHECK(missing.exit.code == exit_usage);
    CHECK(contains(missing.output, "gpujudge: no_such_file.cu: no such file"));
    auto device = gpujudge_cli({"submit", "reduction", "/dev/null"});
    CHECK(device.exit.code == exit_usage);
    CHECK(
        contains(device.output,
                 "gpujudge: /dev/null: not a regular file (a pipe, a device or a socket): save the source to a file"));
    auto unknown = gpujudge_cli({"submit", "no_such_problem", "x.cu"});
    CHECK(unknown.exit.code == exit_usage);
    CHECK(contains(unknown.output, "gpujudge: unknown problem 'no_such_problem' (known: "));
    CHECK(gpujudge_cli({"frobnicate"}).exit.code == exit_usage);
    CHECK(gpujudge_cli({}).exit.code == exit_usage);
}

TEST_CASE("a wrong signature is a compile error that shows the expected one", "[cli]") {
    const auto result = gpujudge_cli({"submit", "reduction", kFixtures + "/wrong_signature.cu"});
    CHECK(result.exit.code == exit_compile_error);
    CHECK(contains(result.output, "wrong_signature.cu(3): error"));
    CHECK(
        contains(result.output,
                 "The expected signature is:\n    extern \"C\" void solve(const float* input, float* output, int N)"));
    const auto missing = gpujudge_cli({"submit", "reduction", kFixtures + "/no_solve.cu"});
    CHECK(missing.exit.code == exit_compile_error);
    CHECK(contains(missing.output, "solve is not defined. Define it exactly as:"));
}

TEST_CASE("submit --json prints one object with the verdict and the tests", "[cli]") {
    const auto result =
        gpujudge_cli({"submit", "--json", "reduction", GPUJUDGE_SOURCE_DIR "/solutions/reduction/warp_shuffle.cu"});
    const auto json = nlohmann::json::parse(result.output);
    CHECK(json.at("tests").is_array());
    if (json.at("verdict") == "no_device") {
        CHECK(result.exit.code == exit_no_device);
        CHECK(json.at("compile").at("ok") == true);
    } else {
        CHECK(json.at("verdict") == "accepted");
        CHECK(result.exit.code == exit_accepted);
    }
}

TEST_CASE("a timed run that fails decides the verdict, the JSON and the exit code alike", "[cli][timed]") {
    // Host-built fakes: the host backend runs them without a GPU.
    const auto result = gpujudge_cli({"--backend", "host", "submit", "--json", kFixtures + "/problems/tiny_sum",
                                      kFixtures + "/host_solutions/caches_by_size.cpp"});
    const auto json = nlohmann::json::parse(result.output);
    CHECK(json.at("verdict") == "wrong_answer");
    CHECK(json.at("exit_code") == exit_wrong_answer);
    CHECK(result.exit.code == exit_wrong_answer);
    CHECK(json.at("reason").get<std::string>().rfind("timed run on 'N = 100000': timed run ", 0) == 0);
    for (const auto& test : json.at("tests")) CHECK(test.at("verdict") == "accepted");
}

TEST_CASE("without a Python that has torch, submit leaves out x torch and fails nothing", "[cli][torch]") {
    const temp_dir home("no-torch-home");
    std::filesystem::create_directories(home.path() / "problems");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", home.path() / "problems" / "tiny_sum");
    std::filesystem::create_directories(home.path() / "solutions" / "tiny_sum");
    std::ofstream(home.path() / "solutions" / "tiny_sum" / "pytorch.py")
        << "import torch\n\n\ndef solve(input: torch.Tensor, output: torch.Tensor, N: int):\n"
        << "    output.copy_(input[:N].sum().unsqueeze(0))\n";
    const auto result = run_command(
        {"/usr/bin/env", "GPUJUDGE_PYTHON=/nonexistent/python3", "GPUJUDGE_DATA_DIR=" + home.path().string(),
         GPUJUDGE_BIN_DIR "/gpujudge", "-v", "--color", "never", "--home", home.path().string(), "--backend", "host",
         "submit", "tiny_sum", kFixtures + "/host_solutions/correct.cpp"},
        std::chrono::seconds(300));
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "| correct.cpp | N = 100000 |"));
    CHECK_FALSE(contains(result.output, "| × torch |"));
    CHECK(contains(result.output, "no × torch column: GPUJUDGE_PYTHON: /nonexistent/python3 does not exist"));  // -v
}

TEST_CASE("a GPUJUDGE_PYTHON that is not there, or is no Python, is said to be so, not to lack torch", "[cli]") {
    const temp_dir folder("no-python");
    const std::string source = (folder.path() / "solution.py").string();
    std::ofstream(source) << "import torch\n\n\ndef solve(input, output, N):\n    output[0] = input[:N].sum()\n";
    const auto run = [&](const std::string& python) {
        return run_command({"/usr/bin/env", "GPUJUDGE_PYTHON=" + python, GPUJUDGE_BIN_DIR "/gpujudge", "--color",
                            "never", "--home", kFixtures, "--backend", "host", "run", "tiny_sum", source},
                           std::chrono::seconds(120));
    };
    const auto missing = run("/nonexistent/python");
    CHECK(missing.exit.code == exit_environment);
    CHECK(contains(missing.output,
                   "gpujudge: GPUJUDGE_PYTHON: /nonexistent/python does not exist: set "
                   "GPUJUDGE_PYTHON to a python3 that has torch (Debian: python3-torch)\n"));
    const auto folder_named = run(folder.path().string());
    CHECK(folder_named.exit.code == exit_environment);
    CHECK(contains(folder_named.output, "GPUJUDGE_PYTHON: " + folder.path().string() + " cannot be run as a Python"));
}

TEST_CASE("validate refuses a malformed problem.yaml with its line", "[cli]") {
    const auto result = run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--home", kFixtures + "/broken_home", "validate"},
                                    std::chrono::seconds(60));
    CHECK(result.exit.code == exit_invalid_problem);
    CHECK(contains(result.output, "FAIL  broken"));
    CHECK(contains(result.output, "broken/problem.yaml:11: end of sequence flow not found"));
}

TEST_CASE("validate refuses a broken problem folder with the error's own line", "[cli]") {
    const std::string dir = kFixtures + "/broken_problems/shape_unknown_scalar";
    const auto result = gpujudge_cli({"validate", dir});
    CHECK(result.exit.code == exit_invalid_problem);
    CHECK(contains(result.output, "  " + dir + "/problem.yaml:6: shape of 'input' uses unknown scalar 'M'\n"));
}

TEST_CASE("validate refuses a source file among the solutions that would not be judged", "[cli]") {
    const temp_dir home("unjudged-home");
    std::filesystem::create_directories(home.path() / "problems");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", home.path() / "problems" / "tiny_sum");
    const auto dir = home.path() / "solutions" / "tiny_sum";
    std::filesystem::create_directories(dir);
    for (const std::string name : {"bad.cpp", "KERNEL.CU", "notes.md", "helper.cuh", "kernel.cu~"})
        std::ofstream(dir / name) << "// expect: wrong_answer\n";
    const auto result =
        run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--home", home.path().string(), "validate", "tiny_sum"},
                    std::chrono::seconds(60));
    CHECK(result.exit.code == exit_invalid_problem);
    INFO(result.output);
    const std::string advice =
        ": not judged: solutions are .cu (CUDA) and .py (Triton, PyTorch) files; rename it, "
        "or move it out of " +
        dir.string() + "\n";
    CHECK(contains(result.output,
                   "  " + (dir / "KERNEL.CU").string() + advice + "  " + (dir / "bad.cpp").string() + advice));
    for (const std::string quiet : {"notes.md", "helper.cuh", "kernel.cu~"})
        CHECK_FALSE(contains(result.output, quiet));
}

TEST_CASE("validate checks a problem's reference against its examples", "[cli]") {
    const auto result = gpujudge_cli({"validate", kFixtures + "/problems/tiny_sum"});
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "ok    "));
}

TEST_CASE("the catalog: list shows all 18 problems, show prints each LeetGPU signature exactly", "[cli][catalog]") {
    const std::vector<std::pair<std::string, std::string>> catalog = {
        {"reduction", "const float* input, float* output, int N"},
        {"dot_product", "const float* A, const float* B, float* result, int N"},
        {"softmax", "const float* input, float* output, int N"},
        {"categorical_cross_entropy", "const float* logits, const int* true_labels, float* loss, int N, int C"},
        {"mean_squared_error", "const float* predictions, const float* targets, float* mse, int N"},
        {"batch_normalization",
         "const float* input, const float* gamma, const float* beta, float* output, int N, int C, float eps"},
        {"rms_normalization", "const float* input, float gamma, float beta, float* output, int N, float eps"},
        {"histogramming", "const int* input, int* histogram, int N, int num_bins"},
        {"count_array_element", "const int* input, int* output, int N, int K"},
        {"count_2d_array_element", "const int* input, int* output, int N, int M, int K"},
        {"count_3d_array_element", "const int* input, int* output, int N, int M, int K, int P"},
        {"monte_carlo_integration", "const float* y_samples, float* result, float a, float b, int n_samples"},
        {"subarray_sum", "const int* input, int* output, int N, int S, int E"},
        {"subarray_sum_2d", "const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL"},
        {"subarray_sum_3d",
         "const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW, int E_ROW, int S_COL, "
         "int E_COL"},
        {"max_subarray_sum", "const int* input, int* output, int N, int window_size"},
        {"matrix_row_sum", "const float* matrix, float* row_sums, int rows, int cols"},
        {"matrix_column_sum", "const float* matrix, float* col_sums, int rows, int cols"},
    };
    const auto list = gpujudge_cli({"list"});
    for (const auto& [slug, params] : catalog) {
        INFO(slug);
        CHECK(contains(list.output, "\n" + slug + " "));
        const auto show = gpujudge_cli({"show", slug});
        CHECK(show.exit.code == exit_accepted);
        CHECK(contains(show.output, "## Signature\n  extern \"C\" void solve(" + params + ")\n"));
    }
}

TEST_CASE("validate <folder> takes the solutions of the folder's own home, never those of the home it runs in",
          "[cli]") {
    const temp_dir scratch("own-home");
    const std::filesystem::path course = scratch.path() / "course";
    std::filesystem::create_directories(course / "problems");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", course / "problems" / "tiny_sum");
    std::filesystem::create_directories(course / "solutions" / "tiny_sum");
    const auto own = course / "solutions" / "tiny_sum" / "own.cu";
    std::ofstream(own) << "// expect: acceptd\nint x;\n";
    // header_home's one solution of tiny_sum is fine: only the course's own file can fail this.
    const auto in_course =
        run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never", "--home", kFixtures + "/header_home", "validate",
                     (course / "problems/tiny_sum").string()},
                    std::chrono::seconds(120));
    INFO(in_course.output);
    CHECK(in_course.exit.code == exit_invalid_problem);
    CHECK(contains(in_course.output, "  " + own.string() + ":1: unknown verdict 'acceptd' after 'expect:'"));
    // A folder in no home's problems/: no home's solutions, and validate says so.
    const auto draft = scratch.path() / "drafts" / "tiny_sum";
    std::filesystem::create_directories(draft.parent_path());
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", draft);
    const auto alone = run_command(
        {GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never", "--home", course.string(), "validate", draft.string()},
        std::chrono::seconds(120));
    INFO(alone.output);
    CHECK(alone.exit.code == exit_accepted);
    CHECK(contains(alone.output, "; no solutions looked for (the folder is in no home's problems/)\n"));
}

TEST_CASE("validate --run on the host backend skips .cu solutions, which need the device backend", "[cli]") {
    const temp_dir home("host-run-home");
    std::filesystem::create_directories(home.path() / "problems");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", home.path() / "problems" / "tiny_sum");
    std::filesystem::create_directories(home.path() / "solutions" / "tiny_sum");
    std::filesystem::copy(kFixtures + "/path_home/solutions/tiny_sum/naive_atomics.cu",
                          home.path() / "solutions" / "tiny_sum" / "naive_atomics.cu");
    const auto result = run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never", "--backend", "host", "--home",
                                     home.path().string(), "validate", "--run", "tiny_sum"},
                                    std::chrono::seconds(300));
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output,
                   "  naive_atomics.cu" + std::string(25, ' ') + "skipped: a .cu solution needs the device backend\n"));
    CHECK_FALSE(contains(result.output, "compile_error"));
}
