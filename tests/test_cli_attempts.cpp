// `run` and `history` as a learner uses them, on the host backend, each test with a history of
// its own; progress only on a terminal.
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "process/child_process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kTinySum = kFixtures + "/problems/tiny_sum";

std::string fake(const std::string& name) {
    return kFixtures + "/host_solutions/" + name + ".cpp";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A history folder of its own (emptied first), and the shared test cache for compiled libraries.
class isolated_cli {
public:
    explicit isolated_cli(const std::string& name) : data_(std::filesystem::path(GPUJUDGE_TEST_CACHE) / name) {
        std::filesystem::remove_all(data_);
        std::filesystem::create_directories(data_);
    }
    ~isolated_cli() { std::filesystem::remove_all(data_); }
    const std::filesystem::path& data_dir() const { return data_; }

    std::vector<std::string> argv(const std::vector<std::string>& args) const {
        std::vector<std::string> all = {"env",
                                        "GPUJUDGE_DATA_DIR=" + data_.string(),
                                        "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE,
                                        GPUJUDGE_BIN_DIR "/gpujudge",
                                        "--color",
                                        "never",
                                        "--home",
                                        GPUJUDGE_SOURCE_DIR,
                                        "--backend",
                                        "host"};
        all.insert(all.end(), args.begin(), args.end());
        return all;
    }
    command_result operator()(const std::vector<std::string>& args) const {
        return run_command(argv(args), std::chrono::seconds(300));
    }

private:
    std::filesystem::path data_;
};

std::string shell_quoted(const std::vector<std::string>& argv) {
    std::string line;
    for (const auto& arg : argv) line += (line.empty() ? "'" : " '") + arg + "'";  // no quotes in these paths
    return line;
}

}  // namespace

TEST_CASE("run judges the examples and functional tests only, untimed", "[cli][run]") {
    const isolated_cli gpujudge("run-accepted");
    const auto text = gpujudge({"run", kTinySum, fake("correct")});
    CHECK(text.exit.code == exit_accepted);
    CHECK(contains(text.output, "verdict: accepted (3/3 tests passed)"));
    CHECK_FALSE(contains(text.output, "median µs"));  // no timing section
    const auto json = nlohmann::json::parse(gpujudge({"run", "--json", kTinySum, fake("correct")}).output);
    CHECK(json.at("verdict") == "accepted");
    CHECK_FALSE(json.contains("bench"));
    std::vector<std::string> kinds;
    for (const auto& test : json.at("tests")) kinds.push_back(test.at("kind"));
    CHECK(kinds == std::vector<std::string>{"example", "functional", "functional"});
}

TEST_CASE("run of a wrong solution is wrong_answer, exit 1", "[cli][run]") {
    const isolated_cli gpujudge("run-wrong");
    const auto result = gpujudge({"run", kTinySum, fake("off_by_one")});
    CHECK(result.exit.code == exit_wrong_answer);
    CHECK(contains(result.output, "verdict: wrong_answer (0/3 tests passed)"));
}

TEST_CASE("history lists a run and a submit, newest first, and the personal best", "[cli][history]") {
    const isolated_cli gpujudge("history-both");
    CHECK(gpujudge({"history"}).output == "no attempts yet: `gpujudge run` and `gpujudge submit` are kept here\n");
    REQUIRE(gpujudge({"run", kTinySum, fake("off_by_one")}).exit.code == exit_wrong_answer);
    REQUIRE(gpujudge({"submit", kTinySum, fake("correct")}).exit.code == exit_accepted);
    const auto text = gpujudge({"history"});
    CHECK(text.exit.code == exit_accepted);
    const auto submit_at = text.output.find(" submit  accepted ");
    const auto run_at = text.output.find(" run     wrong_answer ");
    CHECK(submit_at != std::string::npos);
    CHECK(run_at != std::string::npos);
    CHECK(submit_at < run_at);
    CHECK(contains(text.output, "correct.cpp"));
    CHECK(contains(text.output, "personal bests"));
    const auto json = nlohmann::json::parse(gpujudge({"history", "--json", kTinySum}).output);
    REQUIRE(json.at("attempts").size() == 2);
    const auto& submitted = json.at("attempts")[0];
    CHECK(submitted.at("verdict") == "accepted");
    CHECK(submitted.at("passed") == 4);
    CHECK(submitted.at("total") == 4);
    CHECK(submitted.at("median_us").get<double>() > 0);
    CHECK(json.at("attempts")[1].at("verdict") == "wrong_answer");
    CHECK(json.at("attempts")[1].at("median_us").is_null());
    REQUIRE(json.at("personal_bests").size() == 1);
    CHECK(json.at("personal_bests")[0].at("source") == fake("correct"));
}

TEST_CASE("submit of a bare slug takes the home's problem, never a folder of that name in the working directory",
          "[cli][catalog]") {
    const isolated_cli gpujudge("planted-problem");
    // A student's checkout holding a copy of the problem that accepts any answer.
    const std::filesystem::path checkout = gpujudge.data_dir() / "checkout";
    std::filesystem::create_directories(checkout / "tiny_sum");
    std::filesystem::copy(kTinySum, checkout / "tiny_sum", std::filesystem::copy_options::recursive);
    std::string yaml = read_file_text(checkout / "tiny_sum" / "problem.yaml").value();
    const std::string tolerance = R"(atol: "10 * N * 6e-8", rtol: 1e-5)";
    std::ofstream(checkout / "tiny_sum" / "problem.yaml")
        << yaml.replace(yaml.find(tolerance), tolerance.size(), "atol: 1e30, rtol: 0");
    std::filesystem::copy(checkout / "tiny_sum", checkout / "mine", std::filesystem::copy_options::recursive);
    const auto in_checkout = [&](std::vector<std::string> args) {
        std::vector<std::string> argv = gpujudge.argv(args);
        *std::find(argv.begin(), argv.end(), GPUJUDGE_SOURCE_DIR) = kFixtures;
        argv.insert(argv.begin(), {"sh", "-c", "cd \"$0\" && exec \"$@\"", checkout.string()});
        return run_command(argv, std::chrono::seconds(300));
    };
    CHECK(in_checkout({"submit", "tiny_sum", fake("off_by_one"), "--no-bench"}).exit.code == exit_wrong_answer);
    // Named as a path, the folder is the problem (validate and submit of a problem folder).
    CHECK(in_checkout({"submit", "./tiny_sum", fake("off_by_one"), "--no-bench"}).exit.code == exit_accepted);
    CHECK(in_checkout({"show", "mine"}).output ==
          "gpujudge: unknown problem 'mine' (known: tiny_sum); for the folder here, write it as a path: ./mine\n");
}

TEST_CASE("a best set on an edited copy of a problem is no best of the catalog's problem", "[cli][history]") {
    const isolated_cli gpujudge("best-of-a-copy");
    // Another home whose tiny_sum times a benchmark of the same name on much less data.
    const std::filesystem::path copy = gpujudge.data_dir() / "copy";
    std::filesystem::create_directories(copy / "problems" / "tiny_sum");
    std::filesystem::copy(kTinySum, copy / "problems" / "tiny_sum", std::filesystem::copy_options::recursive);
    std::string yaml = read_file_text(copy / "problems" / "tiny_sum" / "problem.yaml").value();
    const std::string benchmark = "scalars: {N: 100000}";
    std::ofstream(copy / "problems" / "tiny_sum" / "problem.yaml")
        << yaml.replace(yaml.find(benchmark), benchmark.size(), "scalars: {N: 2000}");
    const auto in_home = [&](const std::string& home, std::vector<std::string> args) {
        std::vector<std::string> argv = gpujudge.argv(args);
        *std::find(argv.begin(), argv.end(), GPUJUDGE_SOURCE_DIR) = home;
        return run_command(argv, std::chrono::seconds(300));
    };
    REQUIRE(in_home(copy.string(), {"submit", "tiny_sum", fake("correct")}).exit.code == exit_accepted);
    CHECK(contains(in_home(copy.string(), {"list"}).output, " at N = 100000 ("));  // the copy's own best
    const auto list = in_home(kFixtures, {"list"});
    CHECK(contains(list.output, "Tiny Sum"));
    CHECK_FALSE(contains(list.output, " at N = 100000 ("));
    const auto json = nlohmann::json::parse(in_home(kFixtures, {"history", "--json"}).output);
    CHECK(json.at("attempts").size() == 1);  // listed as history
    CHECK(json.at("personal_bests").empty());
    const auto marked = in_home(kFixtures, {"history"}).output;
    CHECK(contains(marked, "  tiny_sum *               submit  accepted "));
    CHECK(contains(marked,
                   "\n* judged on an earlier version of the problem (its problem.yaml, reference or folder "
                   "has changed since): not counted among the personal bests\n"));
    CHECK(contains(in_home(GPUJUDGE_SOURCE_DIR, {"history"}).output, "  tiny_sum ?               submit  accepted "));
    // The copy broken: its problem is there, and does not load ("?", "does not hold", misled).
    std::ofstream(copy / "problems" / "tiny_sum" / "problem.yaml") << "title: [broken\n";
    const auto broken = in_home(copy.string(), {"history"}).output;
    CHECK(contains(broken, "  tiny_sum !               submit  accepted "));
    CHECK(contains(broken, "\n! a problem this home holds that does not load now (gpujudge validate says why)\n"));
    REQUIRE(in_home(kFixtures, {"submit", "tiny_sum", fake("correct")}).exit.code == exit_accepted);
    CHECK(contains(in_home(kFixtures, {"list"}).output, " at N = 100000 ("));
    CHECK(nlohmann::json::parse(in_home(kFixtures, {"history", "--json"}).output).at("personal_bests").size() == 1);
    CHECK(contains(in_home(kFixtures, {"history"}).output, "  tiny_sum                 submit  accepted "));
}

TEST_CASE("an unusable history: history says so (usage), run still judges", "[cli][history]") {
    const isolated_cli gpujudge("history-corrupt");
    std::ofstream(gpujudge.data_dir() / "history.db") << "this is not an SQLite database, it is a text file";
    const auto listed = gpujudge({"history"});
    CHECK(listed.exit.code == exit_usage);
    CHECK(contains(listed.output, "gpujudge: the history database " + (gpujudge.data_dir() / "history.db").string() +
                                      " cannot be used"));
    CHECK(gpujudge({"run", kTinySum, fake("correct")}).exit.code == exit_accepted);
}

TEST_CASE("no progress without a terminal, even for work longer than a second", "[cli][progress]") {
    const isolated_cli gpujudge("progress-silent");
    const auto result = gpujudge({"run", kTinySum, fake("slow")});  // three calls of 0.4 s
    CHECK_FALSE(contains(result.output, "\r"));
    CHECK_FALSE(contains(result.output, "test 3 of 3"));
    CHECK(contains(result.output, "verdict: "));
}

TEST_CASE("on a terminal, progress is drawn on stderr and erased, --json stays silent", "[cli][progress]") {
    const isolated_cli gpujudge("progress-tty");
    // script(1) gives the command a pseudo-terminal; its output is what that terminal showed.
    const auto shown = [&](const std::vector<std::string>& args) {
        return run_command({"script", "-qec", shell_quoted(gpujudge.argv(args)), "/dev/null"},
                           std::chrono::seconds(300));
    };
    const auto text = shown({"run", kTinySum, fake("slow")});
    CHECK(contains(text.output, "\rtest 3 of 3: N = 1000 ("));
    CHECK(contains(text.output, "\r\x1b[Kproblem  Tiny Sum"));  // erased before the report
    const auto json = shown({"run", "--json", kTinySum, fake("slow")});
    CHECK_FALSE(contains(json.output, "test 3 of 3"));
    CHECK_FALSE(contains(json.output, "\x1b[K"));
}
