// Python solutions as a learner submits them, on the host backend: CPU tensors over the judge's own
// host buffers, through the same runner, sandbox and harness as CUDA. Its own executable: without
// a Python that has torch it exits 77, which CTest reports as skipped.
#include "base/exit_codes.hpp"
#include "base/temp_dir.hpp"
#include "cli_test_support.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"
#include "toolkit/python_probe.hpp"

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

command_result judge_python(const std::string& command, const std::string& file) {
    return gpujudge_env({}, {"--color", "never", "--home", kFixtures, "--backend", "host", command, "tiny_sum",
                             kFixtures + "/python_solutions/" + file});
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a correct Python solution is accepted, and timed by submit", "[python]") {
    const auto run = judge_python("run", "correct.py");
    CHECK(run.exit.code == exit_accepted);
    CHECK(contains(run.output, "verdict: accepted (3/3 tests passed)"));
    const auto submit = judge_python("submit", "correct.py");
    CHECK(submit.exit.code == exit_accepted);
    CHECK(contains(submit.output, "| correct.py | N = 100000 |"));
}

TEST_CASE("a Python syntax error is a compile error at the file's line", "[python]") {
    const auto result = judge_python("run", "syntax_error.py");
    CHECK(result.exit.code == exit_code_for(verdict::compile_error));
    CHECK(contains(result.output, "python_solutions/syntax_error.py:6: SyntaxError: "));
    CHECK(contains(result.output, "output[0] = input[:N].sum("));
}

TEST_CASE("no solve, or solve with other parameters, is a compile error naming the signature", "[python]") {
    for (const char* file : {"no_solve.py", "wrong_signature.py"}) {
        const auto result = judge_python("run", file);
        CHECK(result.exit.code == exit_code_for(verdict::compile_error));
        CHECK(contains(result.output, "def solve(input: torch.Tensor, output: torch.Tensor, N: int)"));
    }
    CHECK(contains(judge_python("run", "wrong_signature.py").output, "solve's parameters are (N, input, output)"));
    const auto keyword_only = judge_python("run", "keyword_only.py");
    CHECK(keyword_only.exit.code == exit_code_for(verdict::compile_error));
    CHECK(contains(keyword_only.output, "solve's parameters are (input, output, *, N)"));
}

TEST_CASE("validate loads each Python solution as the judge does: its syntax and solve's parameters", "[python]") {
    const temp_dir home("python-validate-home");
    std::filesystem::create_directories(home.path() / "problems");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", home.path() / "problems" / "tiny_sum");
    const auto dir = home.path() / "solutions" / "tiny_sum";
    std::filesystem::create_directories(dir);
    for (const char* file : {"correct.py", "syntax_error.py", "wrong_signature.py"}) {
        std::ofstream(dir / file) << "# expect: accepted\n"
                                  << read_file_text(kFixtures + "/python_solutions/" + file).value_or("");
    }
    std::ofstream(dir / "declared.py") << "# expect: compile_error\ndef solve(input, output, N)\n";
    const auto result = gpujudge_env({}, {"--home", home.path().string(), "validate", "tiny_sum"});
    INFO(result.output);
    CHECK(result.exit.code == exit_invalid_problem);
    CHECK(contains(result.output, "  " + (dir / "syntax_error.py").string() + ": does not compile:\n" +
                                      (dir / "syntax_error.py").string() + ":7: SyntaxError: "));
    CHECK(contains(result.output, "  " + (dir / "wrong_signature.py").string() +
                                      ": does not compile:\nsolve's parameters are (N, input, output); the expected "
                                      "signature is:\n  def solve(input: torch.Tensor, output: torch.Tensor, N: int)"));
    CHECK_FALSE(contains(result.output, "correct.py"));
    CHECK_FALSE(contains(result.output, "declared.py"));
}

TEST_CASE("a Python solve that returns its answer or rebinds output is told to write in place", "[python]") {
    const std::string advice =
        "likely cause: the output was never written (the poison the judge put there is intact): solve must write "
        "into the output tensor in place (output.copy_(...), output[:] = ..., or a kernel launched on it): what solve "
        "returns is ignored, and `output = ...` only rebinds the name";
    const std::string returned =
        "gpujudge: solve returned a value of type Tensor, which the judge ignores: write the answer into "
        "the output tensor in place (output.copy_(...) or output[:] = ...)";
    const auto returns = judge_python("run", "returns.py");
    INFO(returns.output);
    CHECK(returns.exit.code == exit_code_for(verdict::wrong_answer));
    CHECK(contains(returns.output, advice));
    CHECK(contains(returns.output, returned));
    CHECK_FALSE(contains(returns.output, "kernel is launched"));
    const auto rebinds = judge_python("run", "rebinds.py");
    INFO(rebinds.output);
    CHECK(contains(rebinds.output, advice));
    CHECK_FALSE(contains(rebinds.output, "solve returned"));
}

TEST_CASE("extra parameters of solve are harmless only with defaults: solve is called with the signature's",
          "[python]") {
    CHECK(judge_python("run", "defaulted_extra.py").exit.code == exit_accepted);
    const auto result = judge_python("run", "undefaulted_extra.py");
    CHECK(result.exit.code == exit_code_for(verdict::compile_error));
    CHECK(contains(result.output, "solve's parameters are (input, output, N, debug)"));
}

TEST_CASE("an exception in solve is a runtime error with the learner's frames alone", "[python]") {
    const auto result = judge_python("run", "raises.py");
    CHECK(result.exit.code == exit_code_for(verdict::runtime_error));
    CHECK(contains(result.output, "solve raised an exception:"));
    CHECK(contains(result.output, "raises.py\", line 6, in helper"));
    CHECK(contains(result.output, "RuntimeError: shape '[3, -1]' is invalid"));
    CHECK_FALSE(contains(result.output, "bootstrap"));
    CHECK_FALSE(contains(result.output, "<string>"));
}

TEST_CASE("exit inside a Python solve is never a pass", "[python]") {
    const auto raised = judge_python("run", "exits.py");
    CHECK(raised.exit.code == exit_code_for(verdict::runtime_error));
    CHECK(contains(raised.output, "SystemExit: 0"));
    const auto ended = judge_python("run", "os_exits.py");
    CHECK(ended.exit.code == exit_code_for(verdict::runtime_error));
    // In the warm-up call, which is solve's too: not "while the harness checked the test".
    CHECK(contains(ended.output,
                   "solve ended the process (exit status 0): a submission must return from solve, not call exit()"));
}

TEST_CASE("a module imported from beside the file is a compile error that says a submission is one file", "[python]") {
    const auto result = judge_python("run", "imports_a_helper.py");
    CHECK(result.exit.code == exit_code_for(verdict::compile_error));
    CHECK(contains(result.output,
                   "ModuleNotFoundError: No module named 'sum_helpers'\n"
                   "  note: a Python submission is one file: modules beside it are not available to "
                   "the judge (only the Python's installed packages are); put what you import from "
                   "them into the file\n"));
}

TEST_CASE("solve's prints in its warm-up call are labelled so, and nothing is added when it prints nothing",
          "[python]") {
    const auto printed = judge_python("run", "prints_in_solve.py");
    CHECK(printed.exit.code == exit_accepted);
    CHECK(contains(printed.output,
                   "  | gpujudge: solve's warm-up call on the shapes of test 'example' begins (untimed, its outputs "
                   "not judged)\n"
                   "  | N is 3 \u2713\n"
                   "  | gpujudge: solve's warm-up call ends\n"
                   "  | N is 3 \u2713\n"));
    CHECK_FALSE(contains(judge_python("run", "correct.py").output, "warm-up"));
}

TEST_CASE("a PyTorch solve's first call is held to the time limit and a margin, not a compile's 30 s", "[python]") {
    const auto start = std::chrono::steady_clock::now();
    const auto result = judge_python("run", "hangs.py");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(25));
    CHECK(result.exit.code == exit_code_for(verdict::time_limit_exceeded));
    CHECK(contains(result.output,
                   "solve's first call (an untimed warm-up) did not finish within 10.5 s: the time limit of 500 ms, "
                   "plus 10 s for torch's set-up; the process was killed"));
}

TEST_CASE(
    "a Python file that may compile in its first call keeps the compile's 30 s: triton, torch.compile, "
    "extensions",
    "[python]") {
    const temp_dir dir("first-call");
    const auto file = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.path() / name) << text;
        return dir.path() / name;
    };
    CHECK_FALSE(compiles_on_first_call(file("plain.py", "import torch\ndef solve(a, b, N): b.copy_(a.sum())\n")));
    CHECK(compiles_on_first_call(file("triton.py", "import triton\n")));
    CHECK(compiles_on_first_call(file("compiled.py", "import torch\n@torch.compile\ndef f(x): return x\n")));
    CHECK(compiles_on_first_call(file("dynamo.py", "import torch._dynamo\n")));
    CHECK(compiles_on_first_call(file("inline.py", "from torch.utils.cpp_extension import load_inline\n")));
    CHECK(compiles_on_first_call(file("imported.py", "from torch import compile\n")));
}

TEST_CASE("a Python solution is held to the same checks as CUDA", "[python]") {
    const auto wrong = judge_python("run", "wrong.py");
    CHECK(wrong.exit.code == exit_code_for(verdict::wrong_answer));
    CHECK(contains(wrong.output, "likely cause: the output is the reference's with N - 1"));
    const auto writes = judge_python("run", "writes_input.py");
    CHECK(writes.exit.code == exit_code_for(verdict::memory_violation));
    CHECK(contains(writes.output, "solve wrote into the const input 'input'"));
}

TEST_CASE("an output written between timed calls is found before the call, whatever solve writes after it",
          "[python]") {
    // The helper races the judge's check, and a write that lands after it is an honest one's twin:
    // on a busy machine a whole run can pass unseen, so a run that missed is tried again, twice.
    command_result result;
    for (int attempt = 0; attempt < 3; ++attempt) {
        result = judge_python("submit", "answers_before_the_call_from_a_thread.py");
        if (result.exit.code != exit_accepted) break;
    }
    CHECK(result.exit.code == exit_code_for(verdict::impossible_time));
    CHECK(contains(result.output,
                   "output[0] held 0x00000000, not the judge's poison 0xffffffff, when solve was called: an answer "
                   "written before the call was made outside it and cannot be timed"));
}

TEST_CASE("an answer a helper thread writes after the call, holding the runner up on stdout's lock, is never timed",
          "[python]") {
    const auto result = judge_python("submit", "answers_behind_the_stdout_lock.py");
    INFO(result.output);
    CHECK(result.exit.code != exit_accepted);
    if (result.exit.code == exit_code_for(verdict::impossible_time))
        CHECK(contains(result.output, "an answer written after the call was made outside it and cannot be timed"));
    else
        CHECK(result.exit.code == exit_code_for(verdict::wrong_answer));
}

TEST_CASE("what a Python solve starts ends with its runner, setsid or not, sandboxed or not", "[python]") {
    // Compiled solves may start no process at all (test_runner.cpp); a Python one may, so the
    // sandbox's PID namespace and, unsandboxed, the judge's sweep as a subreaper must end them.
    const std::string marker = "gpujudge-python-marker-" + std::to_string(getpid());
    const auto chain = gpujudge_env({"GPUJUDGE_TEST_MARKER=" + marker, "GPUJUDGE_SANDBOX_ENV=GPUJUDGE_TEST_MARKER"},
                                    {"--color", "never", "--home", kFixtures, "--backend", "host", "run", "tiny_sum",
                                     kFixtures + "/python_solutions/outlives_judge.py"});
    CHECK(chain.exit.code == exit_accepted);
    CHECK(processes_with(marker).empty());

    const temp_dir folder("escaped");
    const std::string pid_file = (folder.path() / "escaped.pid").string();
    const auto escaped = gpujudge_env({"GPUJUDGE_TEST_PID_FILE=" + pid_file},
                                      {"--color", "never", "--home", kFixtures, "--backend", "host", "--no-sandbox",
                                       "run", "tiny_sum", kFixtures + "/python_solutions/forks_and_hangs.py"});
    CHECK(escaped.exit.code == exit_code_for(verdict::time_limit_exceeded));
    int pid = 0;
    std::ifstream(pid_file) >> pid;
    REQUIRE(pid > 0);
    CHECK(kill(pid, 0) == -1);
}

TEST_CASE("a Python solve sets no timer and starts no child whose signal would stop its runner", "[python]") {
    const auto result = judge_python("run", "stops_itself_by_timer_or_child.py");
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "timer_create: Operation not permitted\n"));
    CHECK(contains(result.output, "clone with SIGSTOP as its exit signal: Operation not permitted\n"));
}

TEST_CASE("a sandboxed Python solve holds 4096 threads and processes at most: a thread or fork bomb stops there",
          "[python]") {
    const auto result = judge_python("run", "starts_a_swarm.py");
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "RLIMIT_NPROC 4096\n"));
    // A root judge's sandbox runs it as a user of its own: root, whom the kernel exempts, would not try the bomb.
    CHECK(!contains(result.output, "uid 0\n"));
    const auto at = result.output.find("started ");
    REQUIRE(at != std::string::npos);
    const int started = std::stoi(result.output.substr(at + 8));
    CHECK(started > 0);
    CHECK(started < 4096);
}

TEST_CASE("a Python solve's child that hoards host memory stops the runner: the limit holds for its processes together",
          "[python]") {
    const auto result = gpujudge_env({"GPUJUDGE_RUNNER_MEMORY_LIMIT_MB=1024"},
                                     {"--color", "never", "--home", kFixtures, "--backend", "host", "run", "tiny_sum",
                                      kFixtures + "/python_solutions/hoards_memory_in_a_child.py"});
    INFO(result.output);
    CHECK(result.exit.code == exit_runtime_error);
    CHECK(contains(result.output, " MiB of host memory, more than the 1024 MiB they may hold"));
}

TEST_CASE("grade on the host backend judges a Python file as submit does", "[python]") {
    const temp_dir folder("python-grade");
    std::filesystem::create_directories(folder.path() / "class" / "ann");
    std::filesystem::copy_file(kFixtures + "/python_solutions/correct.py", folder.path() / "class/ann/tiny_sum.py");
    const auto result =
        gpujudge_env({"GPUJUDGE_DATA_DIR=" + folder.path().string()},
                     {"--color", "never", "--home", kFixtures, "--backend", "host", "grade",
                      (folder.path() / "class").string(), "--out", (folder.path() / "run").string(), "--no-bench"});
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    std::ifstream csv(folder.path() / "run" / "gradebook.csv");
    const std::string rows((std::istreambuf_iterator<char>(csv)), {});
    CHECK(contains(rows, "ann,tiny_sum,ann/tiny_sum.py,accepted,4,4,"));
}

int main(int argc, char* argv[]) {
    try {
        find_python();
    } catch (const std::exception& error) {
        std::printf("Python solutions' tests skipped: %s\n", error.what());
        return 77;
    }
    return Catch::Session().run(argc, argv);
}

TEST_CASE("a Python solve's untimed first calls are held to one budget, all together", "[python]") {
    become_subreaper();
    const problem_spec spec = load_problem(kFixtures + "/problems/tiny_sum");
    judge_context context;
    context.home = kFixtures;
    context.compiler.cache_dir = std::getenv("GPUJUDGE_CACHE_DIR");
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    context.runner.compile_budget_s = 2;  // its first calls sleep 1.5 s each
    judge_options options;
    options.tests = select_tests(spec, {});
    options.timed = false;
    const judgement result =
        judge_submission(spec, kFixtures + "/python_solutions/sleeps_in_its_first_calls.py", options, context);
    CHECK(result.overall == verdict::time_limit_exceeded);
    CHECK(result.tests[0].result == verdict::accepted);
    CHECK(result.tests[1].message ==
          "solve's first calls (untimed warm-ups, one for each test's shapes) took more than 2 s together; the "
          "process was killed");
    CHECK(judge_python("run", "sleeps_in_its_first_calls.py").exit.code == exit_accepted);  // 120 s by default
}

TEST_CASE("the call that compiles first answers nothing of the judged call", "[python]") {
    const auto result = judge_python("run", "remembers_first_call.py");
    CHECK(result.exit.code == exit_code_for(verdict::time_limit_exceeded));
}

TEST_CASE("finding the Python runs nothing of the learner's folder", "[python]") {
    // The probe is `python -c`: without -I, a json.py in the working folder would run, unsandboxed.
    const temp_dir folder("learner");
    const auto marker = folder.path() / "ran";
    std::ofstream(folder.path() / "json.py") << "open(" << marker << ", 'w').write('outside the sandbox')\n";
    const auto result =
        gpujudge_env({"-C", folder.path().string()}, {"--color", "never", "--home", kFixtures, "--backend", "host",
                                                      "run", "tiny_sum", kFixtures + "/python_solutions/correct.py"});
    CHECK(result.exit.code == exit_accepted);
    CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("the judge prepares its Python once, and its runners only read it", "[python]") {
    const temp_dir cache("cache");
    const auto judge = [&] {
        return gpujudge_env({"GPUJUDGE_CACHE_DIR=" + cache.path().string()},
                            {"--color", "never", "--home", kFixtures, "--backend", "host", "run", "tiny_sum",
                             kFixtures + "/python_solutions/correct.py"});
    };
    const auto count_files = [](const std::filesystem::path& folder, const std::string& part) {
        std::size_t count = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
            if (entry.is_regular_file() && entry.path().string().find(part) != std::string::npos) ++count;
        return count;
    };
    REQUIRE(judge().exit.code == exit_accepted);
    std::vector<std::filesystem::path> prepared;
    for (const auto& entry : std::filesystem::directory_iterator(cache.path() / "python-prepared"))
        prepared.push_back(entry.path());
    REQUIRE(prepared.size() == 1);
    CHECK(std::filesystem::exists(prepared[0] / "complete"));
    const std::size_t torch_bytecode = count_files(prepared[0] / "bytecode", "/torch/");
    CHECK(torch_bytecode > 100);  // torch's modules, compiled by the judge's own Python
    const std::size_t files = count_files(prepared[0], "");
    REQUIRE(judge().exit.code == exit_accepted);
    CHECK(count_files(prepared[0], "") == files);  // the second run prepared nothing and wrote nothing
    CHECK(std::distance(std::filesystem::directory_iterator(cache.path() / "python-prepared"),
                        std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("a Python installed beside the judge's cache and data shows the runner none of their files", "[python]") {
    // The runner sees its Python's folders read-only; here they hold the cache (expected outputs,
    // compiled libraries) and the data folder (the history) too.
    const temp_dir folder("beside");
    // Open to others, as an installation is (a root judge's sandbox user reads it).
    std::filesystem::permissions(folder.path(), std::filesystem::perms(0755));
    std::filesystem::create_symlink(find_python().executable, folder.path() / "python3");
    const auto cache = folder.path() / "cache";
    const auto data = folder.path() / "data";
    const auto judge = [&](const std::string& command, const std::string& file) {
        return gpujudge_env({"GPUJUDGE_PYTHON=" + (folder.path() / "python3").string(),
                             "GPUJUDGE_CACHE_DIR=" + cache.string(), "GPUJUDGE_DATA_DIR=" + data.string()},
                            {"--color", "never", "--home", kFixtures, "--backend", "host", command, "tiny_sum",
                             kFixtures + "/python_solutions/" + file, "--json"});
    };
    REQUIRE(judge("run", "correct.py").exit.code == exit_accepted);  // the cache and the history hold files
    REQUIRE(std::filesystem::exists(cache / "expected"));
    REQUIRE(std::filesystem::exists(data / "history.db"));
    const auto result = judge("run", "looks_around.py");  // --json: what it printed is program_output
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "seen: " + (folder.path() / "python3").string()));  // the bind is there
    CHECK_FALSE(contains(result.output, cache.string() + "/expected"));
    CHECK_FALSE(contains(result.output, cache.string() + "/lib"));
    CHECK_FALSE(contains(result.output, data.string() + "/"));
}

TEST_CASE("the Python found is kept in the cache, and found again when its interpreter changes", "[python]") {
    const temp_dir folder("probe");
    const auto log = folder.path() / "probes.log";
    const auto wrapper = folder.path() / "python3";
    const auto write_wrapper = [&](const std::string& comment) {
        std::ofstream(wrapper) << "#!/bin/sh\n# " << comment << "\necho probe >>" << log << "\nexec "
                               << find_python().executable << " \"$@\"\n";
        std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    };
    const auto judge = [&] {
        return gpujudge_env(
            {"GPUJUDGE_PYTHON=" + wrapper.string(), "GPUJUDGE_CACHE_DIR=" + (folder.path() / "cache").string()},
            {"--color", "never", "--home", kFixtures, "--backend", "host", "run", "tiny_sum",
             kFixtures + "/python_solutions/correct.py"});
    };
    const auto probes = [&] {
        std::ifstream file(log);
        std::string line;
        int count = 0;
        while (std::getline(file, line)) ++count;
        return count;
    };
    write_wrapper("first");
    REQUIRE(judge().exit.code == exit_accepted);
    CHECK(probes() == 1);
    REQUIRE(judge().exit.code == exit_accepted);
    CHECK(probes() == 1);  // the kept choice: no Python started to find it
    write_wrapper("another interpreter, a longer file");
    REQUIRE(judge().exit.code == exit_accepted);
    CHECK(probes() == 2);
}
