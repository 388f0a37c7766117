// Every mistake gets a clear answer: each case that once misled (a wrong exit code, a crash, a
// message that named the wrong thing) pinned with its documented exit code and, for user errors,
// its message verbatim.
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/temp_dir.hpp"
#include "catalog/catalog.hpp"
#include "cli_test_support.hpp"
#include "device/device_info.hpp"
#include "history/database.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace gpujudge;

namespace {

const std::string kBin = GPUJUDGE_BIN_DIR "/gpujudge";
const std::string kSource = GPUJUDGE_SOURCE_DIR;
const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kTinySum = kFixtures + "/problems/tiny_sum";
const std::string kCorrectHost = kFixtures + "/host_solutions/correct.cpp";

command_result run_gpujudge(const std::vector<std::string>& args) {
    return gpujudge_env({}, args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A fresh, empty folder under the test cache.
std::filesystem::path scratch(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::path(GPUJUDGE_TEST_CACHE) / "cli_errors" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("an unknown problem is a usage error in every command, validate included", "[cli][errors]") {
    const std::string message = "gpujudge: unknown problem 'no_such_problem' (known: ";
    for (const auto& args : std::vector<std::vector<std::string>>{{"show", "no_such_problem"},
                                                                  {"init", "no_such_problem"},
                                                                  {"submit", "no_such_problem", kCorrectHost},
                                                                  {"bench", "no_such_problem"},
                                                                  {"validate", "no_such_problem"},
                                                                  {"validate", "tiny_sum_missing", "reduction"}}) {
        INFO(args.front());
        std::vector<std::string> full{"--home", kSource};
        full.insert(full.end(), args.begin(), args.end());
        const auto result = run_gpujudge(full);
        CHECK(result.exit.code == exit_usage);
        CHECK(result.output.rfind(args.size() == 3 && args.front() == "validate"
                                      ? "gpujudge: unknown problem 'tiny_sum_missing' (known: "
                                      : message,
                                  0) == 0);
    }
}

TEST_CASE("a problem.yaml in UTF-16 reaches the reference's runner as the judge read it", "[cli][errors]") {
    // YAML allows UTF-16; the hello's JSON, which holds text as UTF-8, mangled it into "unknown escape
    // character", blamed on reference.cpp. It goes in hex.
    namespace fs = std::filesystem;
    const temp_dir home("utf16-yaml-home");
    const fs::path folder = home.path() / "problems" / "tiny_sum";
    fs::create_directories(home.path() / "problems");
    fs::copy(kTinySum, folder);
    const std::string utf8 = read_file_text(folder / "problem.yaml").value();
    std::string utf16 = "\xff\xfe";  // little-endian, after its byte-order mark
    for (const char c : utf8) utf16 += std::string{c, '\0'};
    std::ofstream(folder / "problem.yaml", std::ios::binary) << utf16;
    const auto result = run_gpujudge(
        {"--home", home.path().string(), "--backend", "host", "submit", "tiny_sum", kCorrectHost, "--no-bench"});
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
}

TEST_CASE("grade without its folder says the folder is required, not to check the environment", "[cli][errors]") {
    // absolute("") threw first: "filesystem error: cannot make absolute path", exit 13.
    for (const std::vector<std::string>& args : {std::vector<std::string>{"grade"}, {"grade", ""}}) {
        const auto result = run_gpujudge(args);
        CHECK(result.exit.code == exit_usage);
        CHECK(result.output == "gpujudge: grade: the class folder is required (<dir>/<student>/<problem>.cu)\n");
    }
    const auto collect = run_gpujudge({"grade", "--collect", ""});
    CHECK(collect.exit.code == exit_usage);
    CHECK(collect.output == "gpujudge: --collect: a run folder is required (see gpujudge --help)\n");
}

TEST_CASE("output that cannot be written is the machine's fault, exit 13, in every command", "[cli][errors]") {
    // A --json into a full disk left an empty file and exit 0; history's said "internal error".
    for (const std::string command : {"list", "history --json", "show tiny_sum"}) {
        INFO(command);
        const auto result = run_command({"sh", "-c", kBin + " --home " + kFixtures + " " + command + " > /dev/full"},
                                        std::chrono::seconds(60));
        CHECK(result.exit.code == exit_environment);
        CHECK(contains(result.output, "No space left on device"));
    }
}

TEST_CASE("a compile stopped by the file-size limit gpujudge runs under names that limit, not the compiler's own",
          "[cli][errors]") {
    // The compiler gets the lower of its own limit and the judge's: a correct file was a compile_error
    // that named "1024 MiB". Still a compile error (its driver, not killed itself, says so in words that
    // a source's #error can print too), but one that says what to raise.
    const temp_dir cache("inherited-fsize");
    const std::string folders =
        "GPUJUDGE_CACHE_DIR=" + cache.path().string() + " GPUJUDGE_DATA_DIR=" + cache.path().string();
    const auto result = run_command({"sh", "-c",
                                     "trap '' XFSZ; ulimit -f 16; " + folders + " exec " + kBin + " --home " +
                                         kFixtures + " --backend host run tiny_sum " + kCorrectHost},
                                    std::chrono::seconds(120));
    INFO(result.output);
    CHECK(result.exit.code == exit_invalid_problem);  // with a fresh cache the reference compiles first
    // ulimit counts in blocks of 512 or 1024 bytes, as the shell has it.
    CHECK(contains(result.output, "the compiler exceeded the file-size limit of "));
    CHECK(contains(result.output,
                   " KiB that gpujudge runs under (ulimit -f), below its own of 1024 MiB: raise it "
                   "(ulimit -f unlimited)\n"));
}

TEST_CASE("bench with nothing to time, or --all with a problem, is a usage error, not an empty table",
          "[cli][errors]") {
    const auto nothing = run_gpujudge({"--home", kFixtures, "--backend", "host", "bench", "tiny_sum"});
    CHECK(nothing.exit.code == exit_usage);
    CHECK(nothing.output ==
          "gpujudge: bench: tiny_sum: nothing to time: name a file, or add accepted solutions to "
          "solutions/tiny_sum/\n");
    const auto both = run_gpujudge({"--home", kFixtures, "bench", "tiny_sum", "--all"});
    CHECK(both.exit.code == exit_usage);
    CHECK(both.output == "gpujudge: bench --all times every problem with its shipped solutions: name none with it\n");
}

TEST_CASE("a file whose name starts with a dash is told how to name it, not only that the source is missing",
          "[cli][errors]") {
    const auto dir = scratch("dash");
    std::filesystem::copy_file(kCorrectHost, dir / "-mine.cpp");
    const auto told = gpujudge_env({"-C", dir.string()}, {"--color", "never", "--home", kFixtures, "--backend", "host",
                                                          "run", "tiny_sum", "-mine.cpp"});
    CHECK(told.exit.code == exit_usage);
    CHECK(told.output ==
          "gpujudge: source is required (see gpujudge --help); '-mine.cpp' reads as an option: write ./-mine.cpp, "
          "or -- before it\n");
    const auto named = gpujudge_env({"-C", dir.string()}, {"--color", "never", "--home", kFixtures, "--backend", "host",
                                                           "run", "tiny_sum", "--", "-mine.cpp"});
    CHECK(named.exit.code == exit_accepted);
}

TEST_CASE("validate takes a problem's problem.yaml for its folder", "[cli][errors]") {
    const auto result = run_gpujudge({"--home", kFixtures, "validate", kTinySum + "/problem.yaml"});
    INFO(result.output);
    CHECK(result.exit.code == exit_accepted);
    CHECK(result.output.rfind("ok    " + kTinySum + "/problem.yaml ", 0) == 0);
}

TEST_CASE("nvcc missing from PATH is looked for in the toolkit's folder, else says where to get it", "[cli][errors]") {
    // /usr/bin has the host compiler (the reference builds) but not nvcc; CUDA_HOME names no toolkit.
    const auto result =
        gpujudge_env({"CUDA_HOME=/nonexistent", "PATH=/usr/bin:/bin"},
                     {"--home", kSource, "submit", "reduction", kSource + "/solutions/reduction/warp_shuffle.cu"});
    INFO(result.output);
    if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) {
        // Found in the default installation: it compiles, and the verdict is the device's.
        CHECK(!contains(result.output, "not found"));
        CHECK((result.exit.code == exit_no_device || result.exit.code == exit_accepted));
        return;
    }
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output ==
          "gpujudge: nvcc not found on PATH, in /nonexistent/bin or in /usr/local/cuda/bin: gpujudge compiles CUDA "
          "submissions with it; install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), then add its "
          "bin folder to PATH or set CUDA_HOME to the folder it is installed in\n");
}

TEST_CASE("an unusable history.db is a warning, and the command still works", "[cli][errors]") {
    SECTION("a corrupt file") {
        const auto dir = scratch("corrupt_history");
        std::ofstream(dir / "history.db") << std::string(4096, 'x');
        const auto result = gpujudge_env({"GPUJUDGE_DATA_DIR=" + dir.string()}, {"--home", kSource, "list"});
        CHECK(result.exit.code == exit_accepted);
        CHECK(contains(result.output, "gpujudge: history unusable: " + (dir / "history.db").string() +
                                          ": file is not a database; results are not kept\n"));
        CHECK(contains(result.output, "\nreduction "));
    }
    SECTION("a damaged file, which opens and fails only at its first query") {
        const auto dir = scratch("damaged_history");
        const auto path = dir / "history.db";
        {
            history results(path);
            for (int i = 0; i < 2000; ++i)
                results.record({"reduction", "a.cu", "submit", false, "gpu", "uuid", "N = 1"});
        }
        // The first page (the schema) intact, the tables' pages overwritten.
        const auto size = std::filesystem::file_size(path);
        std::fstream(path, std::ios::in | std::ios::out | std::ios::binary).seekp(4096)
            << std::string(size - 4096, 'x');
        const auto result = gpujudge_env({"GPUJUDGE_DATA_DIR=" + dir.string()}, {"--home", kSource, "list"});
        CHECK(result.exit.code == exit_accepted);
        CHECK(contains(result.output, "gpujudge: history unusable: " + path.string() +
                                          ": database disk image is malformed; results are not kept\n"));
        CHECK(contains(result.output, "\nreduction "));
    }
    SECTION("a folder that cannot be created") {
        const auto file = scratch("unwritable_history") / "a_file";
        std::ofstream(file) << "not a folder\n";
        const auto result = gpujudge_env({"GPUJUDGE_DATA_DIR=" + file.string()}, {"--home", kSource, "list"});
        CHECK(result.exit.code == exit_accepted);
        CHECK(result.output.rfind("gpujudge: history unusable: " + (file / "history.db").string() + ": ", 0) == 0);
        CHECK(contains(result.output, "; results are not kept\n"));
        CHECK(contains(result.output, "\nreduction "));
    }
    SECTION("a read-only file") {
        const auto dir = scratch("readonly_history");
        const auto path = dir / "history.db";
        history{path};
        std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::others_read);
        // Root writes a read-only file all the same: run as nobody there.
        std::vector<std::string> argv{"/usr/bin/env", "GPUJUDGE_DATA_DIR=" + dir.string(), kBin, "--home", kSource,
                                      "list"};
        if (geteuid() == 0) {
            if (!std::filesystem::exists("/usr/bin/setpriv")) {
                WARN("skipped: running as root, and no setpriv to run as nobody");
                return;
            }
            argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
        }
        const auto result = run_command(argv, std::chrono::seconds(60));
        CHECK(result.exit.code == exit_accepted);
        CHECK(contains(result.output, "gpujudge: history unusable: " + path.string() +
                                          ": the database is read-only; results are not kept\n"));
    }
}

TEST_CASE("a --home without problems/ is an error naming the folder", "[cli][errors]") {
    const std::string empty_home = scratch("empty_home").string();
    for (const std::string& home : {std::string("/nonexistent"), empty_home}) {
        for (const auto& args : std::vector<std::vector<std::string>>{{"list"}, {"validate"}, {"bench", "--all"}}) {
            INFO(home << " " << args.front());
            std::vector<std::string> full{"--home", home};
            full.insert(full.end(), args.begin(), args.end());
            const auto result = run_gpujudge(full);
            CHECK(result.exit.code == exit_usage);
            CHECK(result.output ==
                  "gpujudge: " + home + ": no problems/ folder here (the home is set by --home or GPUJUDGE_HOME)\n");
        }
    }
    const auto env = gpujudge_env({"GPUJUDGE_HOME=/nonexistent"}, {"list"});
    CHECK(env.exit.code == exit_usage);
    CHECK(env.output ==
          "gpujudge: /nonexistent: no problems/ folder here (the home is set by --home or GPUJUDGE_HOME)\n");
}

TEST_CASE("a source that is a folder, or whose name is too long, is a usage error that says so", "[cli][errors]") {
    const std::string dir = scratch("a_folder.cu").string();
    for (const auto& command : {"submit", "bench"}) {
        INFO(command);
        const auto result = run_gpujudge({"--home", kSource, command, "reduction", dir});
        CHECK(result.exit.code == exit_usage);
        CHECK(result.output == "gpujudge: " + dir + ": is a directory, not a source file\n");
    }
    const std::string long_name = std::string(300, 'a') + ".cu";
    const auto result = run_gpujudge({"--home", kSource, "submit", "reduction", long_name});
    CHECK(result.exit.code == exit_usage);
    CHECK(result.output == "gpujudge: " + long_name + ": File name too long\n");
    const auto problem = run_gpujudge({"--home", kSource, "show", long_name});
    CHECK(problem.exit.code == exit_usage);
    CHECK(problem.output.rfind("gpujudge: unknown problem '" + long_name + "' (known: ", 0) == 0);
}

TEST_CASE("an unknown command is named as such", "[cli][errors]") {
    const auto unknown = run_gpujudge({"frobnicate"});
    CHECK(unknown.exit.code == exit_usage);
    CHECK(unknown.output == "gpujudge: unknown command 'frobnicate' (see gpujudge --help for the commands)\n");
    const auto after_options = run_gpujudge({"--color", "never", "frobnicate", "x.cu"});
    CHECK(after_options.exit.code == exit_usage);
    CHECK(after_options.output == "gpujudge: unknown command 'frobnicate' (see gpujudge --help for the commands)\n");
    const auto none = run_gpujudge({});
    CHECK(none.exit.code == exit_usage);
    CHECK(none.output == "gpujudge: a command is required (see gpujudge --help for the commands)\n");
    const auto option = run_gpujudge({"-x"});
    CHECK(option.exit.code == exit_usage);
    CHECK(option.output == "gpujudge: unknown option '-x' (see gpujudge --help)\n");
    const auto extra = run_gpujudge({"--home", kSource, "list", "extra"});
    CHECK(extra.exit.code == exit_usage);
    CHECK(extra.output == "gpujudge: The following argument was not expected: extra (see gpujudge --help)\n");
}

TEST_CASE("the --version option prints the version", "[cli][errors]") {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--version"}, {"list", "--version"}}) {
        const auto result = run_gpujudge(args);
        CHECK(result.exit.code == exit_accepted);
        CHECK(std::regex_match(result.output, std::regex("gpujudge [0-9]+\\.[0-9]+\\.[0-9]+\n")));
    }
}

TEST_CASE("global options are accepted after the command", "[cli][errors]") {
    const auto list = run_gpujudge({"list", "--home", kSource, "--color", "never", "-v", "--timings"});
    CHECK(list.exit.code == exit_accepted);
    CHECK(contains(list.output, "\nreduction "));
    CHECK(contains(list.output, "timings: "));
    const auto host = run_gpujudge({"submit", kTinySum, kCorrectHost, "--backend", "host", "--no-bench", "--json"});
    CHECK(host.exit.code == exit_accepted);
    CHECK(nlohmann::json::parse(host.output).at("verdict") == "accepted");
}

TEST_CASE("the --tests option takes one comma-separated value, and the file after it stays the source",
          "[cli][errors]") {
    const auto result = run_gpujudge(
        {"--backend", "host", "submit", "--json", "--no-bench", kTinySum, "--tests", "examples", kCorrectHost});
    CHECK(result.exit.code == exit_accepted);
    const auto json = nlohmann::json::parse(result.output);
    CHECK(json.at("verdict") == "accepted");
    std::size_t examples = 0;
    for (const auto& test : json.at("tests")) examples += test.at("kind") == "example";
    CHECK(examples == json.at("tests").size());
    CHECK(examples > 0);
    const auto both = run_gpujudge({"--backend", "host", "submit", "--json", "--no-bench", kTinySum, "--tests",
                                    "examples,functional", kCorrectHost});
    CHECK(both.exit.code == exit_accepted);
    CHECK(nlohmann::json::parse(both.output).at("tests").size() > json.at("tests").size());
}

TEST_CASE("tests chosen without the benchmarks are judged, not timed", "[cli][errors]") {
    const auto examples =
        run_gpujudge({"--backend", "host", "submit", "--json", kTinySum, "--tests", "examples", kCorrectHost});
    CHECK(examples.exit.code == exit_accepted);
    CHECK_FALSE(nlohmann::json::parse(examples.output).contains("bench"));
    const auto benchmarks =
        run_gpujudge({"--backend", "host", "submit", "--json", kTinySum, "--tests", "benchmarks", kCorrectHost});
    CHECK(benchmarks.exit.code == exit_accepted);
    CHECK(nlohmann::json::parse(benchmarks.output).at("bench").at("entries").size() == 1);
}

TEST_CASE("a bare // line in a solution's header is a blank line of the header", "[cli][errors]") {
    const std::string home = kFixtures + "/header_home";
    const auto header = read_solution_header(home + "/solutions/tiny_sum/bare_comment_line.cu");
    CHECK(header.header_error.empty());
    CHECK(header.expected == verdict::accepted);
    const auto result = run_gpujudge({"--home", home, "validate", "tiny_sum"});
    CHECK(result.exit.code == exit_accepted);
    CHECK(contains(result.output, "ok    tiny_sum "));
    CHECK(contains(result.output, "; 1 solutions\n"));
}

TEST_CASE("no device: no driver and a driver too old are told apart", "[errors]") {
    CHECK(describe_device_failure(cudaErrorInsufficientDriver, 0, 13000) ==
          "no NVIDIA driver found: install the NVIDIA driver (https://www.nvidia.com/drivers) to judge on a GPU");
    CHECK(describe_device_failure(cudaErrorNoDevice, 0, 13000) ==
          "no NVIDIA driver found: install the NVIDIA driver (https://www.nvidia.com/drivers) to judge on a GPU");
    CHECK(describe_device_failure(cudaErrorInsufficientDriver, 12020, 13000) ==
          "the NVIDIA driver is too old: it supports CUDA 12.2, gpujudge's CUDA runtime needs 13.0; update the driver");
    CHECK(describe_device_failure(cudaErrorNoDevice, 13000, 13000) == "no CUDA device found");
    CHECK(describe_device_failure(cudaErrorInsufficientDriver, 13000, 13000) ==
          "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version");
}

TEST_CASE("no device: this machine's reason is one of the plain ones", "[cli][errors]") {
    const auto result = run_gpujudge(
        {"--home", kSource, "submit", "--json", "reduction", kSource + "/solutions/reduction/warp_shuffle.cu"});
    const auto json = nlohmann::json::parse(result.output);
    if (json.at("verdict") != "no_device") {
        WARN("skipped: this machine has a GPU");
        return;
    }
    const std::string reason = json.at("reason");
    INFO(reason);
    CHECK((reason.rfind("no NVIDIA driver found: ", 0) == 0 || reason.rfind("the NVIDIA driver is too old: ", 0) == 0 ||
           reason == "no CUDA device found"));
}

TEST_CASE("files that are no files in a home end as its errors, at once: a FIFO, a dangling link", "[cli][errors]") {
    namespace fs = std::filesystem;
    const temp_dir home("fifo-home");
    fs::create_directories(home.path() / "problems");
    fs::create_directories(home.path() / "solutions" / "tiny_sum");
    fs::copy(kTinySum, home.path() / "problems" / "tiny_sum");
    fs::copy(kTinySum, home.path() / "problems" / "piped");
    fs::remove(home.path() / "problems" / "piped" / "problem.yaml");
    REQUIRE(mkfifo((home.path() / "problems" / "piped" / "problem.yaml").c_str(), 0600) == 0);  // no writer, ever
    REQUIRE(mkfifo((home.path() / "solutions" / "tiny_sum" / "fifo.cu").c_str(), 0600) == 0);
    fs::create_symlink("nowhere.cu", home.path() / "solutions" / "tiny_sum" / "dangling.cu");
    const std::string solutions = (home.path() / "solutions" / "tiny_sum").string();
    const auto result = run_gpujudge({"--home", home.path().string(), "validate"});
    CHECK(result.exit.code == exit_invalid_problem);
    CHECK(result.output == "FAIL  piped\n  " + (home.path() / "problems" / "piped" / "problem.yaml").string() +
                               ": not a regular file\nFAIL  tiny_sum\n  " + solutions +
                               "/dangling.cu: cannot read the file (missing, not a regular file, or over 1 GiB)\n  " +
                               solutions +
                               "/fifo.cu: cannot read the file (missing, not a regular file, or over 1 GiB)\n");
}

TEST_CASE("a problem.yaml that links out of its folder is judged as read and a dangling one says where it points",
          "[cli][errors]") {
    namespace fs = std::filesystem;
    const temp_dir home("linked-yaml-home");
    const fs::path folder = home.path() / "problems" / "tiny_sum";
    fs::create_directories(home.path() / "problems");
    fs::copy(kTinySum, folder);
    fs::rename(folder / "problem.yaml", home.path() / "real.yaml");
    // The reference's runner sees the problem's folder alone: it used to read the link itself and fail,
    // "reference.cpp: .../problem.yaml: cannot read the file". Now the judge hands it the text it read.
    fs::create_symlink("../../real.yaml", folder / "problem.yaml");
    const auto linked = run_gpujudge(
        {"--home", home.path().string(), "--backend", "host", "submit", "tiny_sum", kCorrectHost, "--no-bench"});
    INFO(linked.output);
    CHECK(linked.exit.code == exit_accepted);
    fs::remove(home.path() / "real.yaml");
    const auto dangling = run_gpujudge({"--home", home.path().string(), "validate", "tiny_sum"});
    CHECK(dangling.exit.code == exit_invalid_problem);
    CHECK(dangling.output == "FAIL  tiny_sum\n  " + (folder / "problem.yaml").string() +
                                 ": a link to '../../real.yaml', which does not exist\n");
}
