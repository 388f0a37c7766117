// `gpujudge grade` on the host backend: a small class judged by two fake "GPUs" (workers), its
// gradebook, summary and leaderboard, bad inputs as rows, a rerun that judges nothing new, and a
// grade that goes on after being killed.
#include "base/exit_codes.hpp"
#include "grade/grade_reports.hpp"
#include "grade/gradebook.hpp"
#include "process/child_process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A class folder and its run folder, made fresh under the test cache and removed after.
class class_folder {
public:
    explicit class_folder(const std::string& name) : root_(std::filesystem::path(GPUJUDGE_TEST_CACHE) / name) {
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(dir());
    }
    ~class_folder() { std::filesystem::remove_all(root_); }
    std::filesystem::path dir() const { return root_ / "class"; }
    std::filesystem::path run() const { return root_ / "run"; }

    // <student>/<file>: a host solution's copy, with `extra` appended (another source's bytes).
    void hand_in(const std::string& student, const std::string& file, const std::string& solution,
                 const std::string& extra = "") const {
        std::filesystem::create_directories(dir() / student);
        std::ifstream in(kFixtures + "/host_solutions/" + solution + ".cpp");
        std::ofstream(dir() / student / file) << in.rdbuf() << extra;
    }
    std::vector<std::string> argv(const std::vector<std::string>& args) const {
        std::vector<std::string> all{"env",
                                     "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE,
                                     "GPUJUDGE_DATA_DIR=" + root_.string(),
                                     GPUJUDGE_BIN_DIR "/gpujudge",
                                     "--color",
                                     "never",
                                     "--home",
                                     kFixtures,
                                     "--backend",
                                     "host",
                                     "grade",
                                     dir().string(),
                                     "--out",
                                     run().string()};
        all.insert(all.end(), args.begin(), args.end());
        return all;
    }
    command_result grade(const std::vector<std::string>& args) const {
        return run_command(argv(args), std::chrono::seconds(600));
    }
    std::map<std::string, grade_row> rows() const {
        std::map<std::string, grade_row> by_file;
        for (auto& row : gradebook(run() / "gradebook.db").rows()) by_file[row.file] = row;
        return by_file;
    }
    std::string file(const std::string& name) const {
        std::ifstream in(run() / name);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }

private:
    std::filesystem::path root_;
};

}  // namespace

TEST_CASE("csv fields are quoted only when they must be", "[grade]") {
    CHECK(csv_field("alice") == "alice");
    CHECK(csv_field("a, b") == "\"a, b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("grade judges a class on two workers, bad inputs are rows, a rerun judges nothing new", "[grade]") {
    class_folder cls("grade_class");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    cls.hand_in("carol", "tiny_sum.cpp", "crashes");       // a runner that crashes, on whichever worker
    cls.hand_in("dave smith", "tiny_sum.cpp", "correct");  // alice's bytes
    cls.hand_in("élodie", "tiny_sum.cpp", "hangs");
    cls.hand_in("erin", "notes.txt", "correct");
    cls.hand_in("erin", "no_such_problem.cpp", "correct");
    cls.hand_in("fred", "tiny_sum.cpp", "correct", "this is not C++\n");
    std::filesystem::create_directories(cls.dir() / "gina");
    const auto first = cls.grade({"--gpus", "0,1", "--no-bench"});
    INFO(first.output);
    REQUIRE(first.exit.code == exit_accepted);
    CHECK(contains(first.output, "6 to judge, 0 unchanged, 0 judged under another name, 3 not submissions"));
    const auto rows = cls.rows();
    REQUIRE(rows.size() == 9);
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(rows.at("alice/tiny_sum.cpp").passed == rows.at("alice/tiny_sum.cpp").total);
    CHECK(rows.at("alice/tiny_sum.cpp").gpu == "host");
    CHECK(rows.at("bob/tiny_sum.cpp").status == "wrong_answer");
    CHECK(rows.at("carol/tiny_sum.cpp").status == "runtime_error");
    CHECK(rows.at("dave smith/tiny_sum.cpp").status == "accepted");
    CHECK(rows.at("élodie/tiny_sum.cpp").status == "time_limit_exceeded");
    CHECK(rows.at("erin/notes.txt").status == "not_a_source");
    CHECK(rows.at("erin/no_such_problem.cpp").status == "unknown_problem");
    CHECK(rows.at("fred/tiny_sum.cpp").status == "compile_error");
    CHECK(rows.at("gina/").status == "empty_folder");

    const std::string csv = cls.file("gradebook.csv");
    CHECK(contains(csv, "student,problem,file,status,tests_passed,tests_total,median_us"));
    CHECK(contains(csv, "dave smith,tiny_sum,dave smith/tiny_sum.cpp,accepted,4,4,"));
    CHECK(contains(csv, "élodie,tiny_sum,élodie/tiny_sum.cpp,time_limit_exceeded,"));
    CHECK(nlohmann::json::parse(cls.file("gradebook.json")).size() == 9);
    const std::string summary = cls.file("summary.md");
    CHECK(contains(summary, "| tiny_sum | 6 | 2 | 1 | 3 |"));
    CHECK(contains(summary, "## Byte-identical sources\n\n- tiny_sum: alice, dave smith\n"));
    CHECK(contains(summary, "gina/: empty_folder"));

    const auto again = cls.grade({"--gpus", "0,1", "--no-bench"});
    CHECK(again.exit.code == exit_accepted);
    CHECK(contains(again.output, "0 to judge, 6 unchanged"));
    cls.hand_in("henry", "tiny_sum.cpp", "correct");  // alice's bytes again: her judgement holds
    const auto third = cls.grade({"--gpus", "0,1", "--no-bench"});
    CHECK(contains(third.output, "0 to judge, 6 unchanged, 1 judged under another name"));
    CHECK(cls.rows().at("henry/tiny_sum.cpp").status == "accepted");
    const auto rejudged = cls.grade({"--gpus", "0,1", "--no-bench", "--rejudge"});
    CHECK(contains(rejudged.output, "7 to judge"));
}

TEST_CASE("grade times accepted submissions and ranks them in the leaderboard", "[grade]") {
    class_folder cls("grade_timed");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "half_accumulator");
    const auto graded = cls.grade({});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto alice = cls.rows().at("alice/tiny_sum.cpp");
    CHECK(alice.status == "accepted");
    CHECK(alice.median_us.has_value());
    const std::string board = cls.file("leaderboard.md");
    CHECK(contains(board, "## tiny_sum"));
    CHECK(contains(board, "### On host"));
    CHECK(contains(board, "| 1 | alice |"));
}

TEST_CASE("a grade killed midway goes on where it stopped", "[grade]") {
    class_folder cls("grade_resume");
    for (int i = 0; i < 5; ++i)  // distinct bytes: nothing is judged under another name
        cls.hand_in("student" + std::to_string(i), "tiny_sum.cpp", "slow", "// " + std::to_string(i) + "\n");
    std::filesystem::create_directories(cls.run());
    {
        spawn_options quiet;
        quiet.output_file = cls.run() / "first.log";
        child_process grading(cls.argv({"--gpus", "0", "--no-bench"}), quiet);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
        std::size_t judged = 0;
        while (judged == 0 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            judged = 0;
            if (std::filesystem::exists(cls.run() / "gradebook.db"))
                for (const auto& [file, row] : cls.rows()) judged += judged_status(row.status);
        }
        REQUIRE(judged > 0);
        grading.kill_group();
        grading.wait();
    }
    const auto rest = cls.grade({"--gpus", "0", "--no-bench"});
    INFO(rest.output);
    REQUIRE(rest.exit.code == exit_accepted);
    CHECK(!contains(rest.output, "5 to judge"));
    CHECK(!contains(rest.output, "0 to judge"));
    const auto rows = cls.rows();
    CHECK(rows.size() == 5);
    for (const auto& [file, row] : rows) CHECK(row.status == "accepted");
}
