// `gpujudge grade` on the host backend: a small class judged by two fake "GPUs" (workers), its
// gradebook, summary and leaderboard, bad inputs as rows, a rerun that judges nothing new, and a
// grade that goes on after being killed.
#include "base/content_hash.hpp"
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/hex_text.hpp"
#include "base/json_text.hpp"
#include "base/temp_dir.hpp"
#include "compile/error_reason.hpp"
#include "grade/class_folder.hpp"
#include "grade/grade_reports.hpp"
#include "grade/gradebook.hpp"
#include "grade/local_grader.hpp"
#include "grade/slurm_grader.hpp"
#include "process/child_process.hpp"
#include "process/nvidia_gpus.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
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

bool ends_with(const std::string& text, const std::string& end) {
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// A class folder and its run folder, made fresh under the test cache and removed after.
// tiny_sum's reference, ending its process past N = 500: a reference that fails while a class is judged.
const char* const kExitingReference =
    "#include <cstdlib>\n"
    "extern \"C\" void reference(const float* input, float* output, int N) {\n"
    "    if (N > 500) std::exit(0);\n"
    "    double sum = 0;\n"
    "    for (int i = 0; i < N; ++i) sum += input[i];\n"
    "    output[0] = static_cast<float>(sum);\n"
    "}\n";

class class_folder {
public:
    explicit class_folder(const std::string& name, std::string home = kFixtures, std::string backend = "host")
        : root_(std::filesystem::path(GPUJUDGE_TEST_CACHE) / name),
          home_(std::move(home)),
          backend_(std::move(backend)) {
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(dir());
    }
    ~class_folder() { std::filesystem::remove_all(root_); }
    std::filesystem::path dir() const { return root_ / "class"; }
    std::filesystem::path root() const { return root_; }
    // A stand-in for a Slurm command (or nvidia-smi), in <root>/bin; path() puts that folder first on PATH.
    void slurm_command(const std::string& name, const std::string& script) const {
        std::filesystem::create_directories(root_ / "bin");
        std::ofstream(root_ / "bin" / name) << "#!/bin/sh\n" << script;
        std::filesystem::permissions(root_ / "bin" / name, std::filesystem::perms::owner_all);
    }
    std::string path() const { return "PATH=" + (root_ / "bin").string() + ":" + std::getenv("PATH"); }
    std::filesystem::path run() const { return root_ / "run"; }

    // <student>/<file>: a host solution's copy, with `extra` appended (another source's bytes).
    void hand_in(const std::string& student, const std::string& file, const std::string& solution,
                 const std::string& extra = "") const {
        std::filesystem::create_directories(dir() / student);
        std::ifstream in(kFixtures + "/host_solutions/" + solution + ".cpp");
        std::ofstream(dir() / student / file) << in.rdbuf() << extra;
    }
    // A home of the test's own beside the class folder, holding a copy of the fixtures' tiny_sum (to break).
    std::filesystem::path own_home() const {
        const auto home = root_ / "home";
        std::filesystem::create_directories(home / "problems");
        std::filesystem::copy(kFixtures + "/problems/tiny_sum", home / "problems" / "tiny_sum",
                              std::filesystem::copy_options::recursive);
        return home;
    }
    // argv() with another home than the one the folder was made with.
    std::vector<std::string> argv(const std::vector<std::string>& args, const std::filesystem::path& home) const {
        std::vector<std::string> all = argv(args);
        *(std::find(all.begin(), all.end(), "--home") + 1) = home.string();
        return all;
    }
    std::vector<std::string> argv(const std::vector<std::string>& args) const {
        std::vector<std::string> all{"env",
                                     "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE,
                                     "GPUJUDGE_DATA_DIR=" + root_.string(),
                                     GPUJUDGE_BIN_DIR "/gpujudge",
                                     "--color",
                                     "never",
                                     "--home",
                                     home_,
                                     "--backend",
                                     backend_,
                                     "grade",
                                     dir().string(),
                                     "--out",
                                     run().string()};
        all.insert(all.end(), args.begin(), args.end());
        return all;
    }
    command_result grade(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) const {
        std::vector<std::string> all = argv(args);
        all.insert(all.begin() + 1, env.begin(), env.end());  // after "env"
        return run_command(all, std::chrono::seconds(600));
    }
    std::map<std::string, grade_row> rows() const {
        std::map<std::string, grade_row> by_file;
        for (auto& row : gradebook(run() / "gradebook.db").rows()) by_file[row.file] = row;
        return by_file;
    }
    std::string note() const {  // what grade noted for serve ($GPUJUDGE_DATA_DIR/last-grade)
        std::ifstream in(root_ / "last-grade");
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }
    std::string file(const std::string& name) const {
        std::ifstream in(run() / name);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }

private:
    std::filesystem::path root_;
    std::string home_;
    std::string backend_;
};

}  // namespace

TEST_CASE("csv fields are quoted only when they must be", "[grade]") {
    CHECK(csv_field("alice") == "alice");
    CHECK(csv_field("a, b") == "\"a, b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("csv text fields never read as formulas, and names are printed without control characters", "[grade]") {
    CHECK(csv_text("alice") == "alice");
    CHECK(csv_text("=HYPERLINK(\"http:x\")") == "'=HYPERLINK(\"http:x\")");
    CHECK(csv_text("@SUM(1)") == "'@SUM(1)");
    CHECK(csv_text("-2+3") == "'-2+3");
    CHECK(printable_name("a\n| b\x1b]0;t\a") == "a\\n| b\\x1b]0;t\\x07");
    CHECK(printable_name("a\n| <img>", true) == "a\\n\\| &lt;img>");
    CHECK(printable_name("n\xe9"
                         "e n\xc3\xa9"
                         "e") ==
          "n\\xe9e n\xc3\xa9"
          "e");  // Latin-1 escaped, UTF-8 kept
}

TEST_CASE(
    "grade: names cannot forge Markdown rows or reach the terminal raw, nor formulas the CSV, and a huge file is "
    "refused unread",
    "[grade]") {
    class_folder cls("grade_names");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("=1+2", "tiny_sum.cpp", "correct");
    cls.hand_in("mallory\n\n# Forged heading", "tiny_sum.cpp", "correct");
    cls.hand_in("alice", "x\x1b]0;title\a\n## Byte-identical sources", "correct");
    std::filesystem::create_directories(cls.dir() / "zed");
    std::ofstream(cls.dir() / "zed" / "tiny_sum.cpp").close();
    std::filesystem::resize_file(cls.dir() / "zed" / "tiny_sum.cpp", std::uintmax_t{64} << 30);  // sparse
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    CHECK_FALSE(contains(graded.output, "\x1b"));
    const auto rows = cls.rows();
    CHECK(rows.at("zed/tiny_sum.cpp").status == "not_a_source");
    CHECK(rows.at("zed/tiny_sum.cpp").reason == "larger than 4 MiB: not a submission");
    CHECK(rows.at("=1+2/tiny_sum.cpp").status == "accepted");
    CHECK(contains(cls.file("gradebook.csv"), "\r\n'=1+2,tiny_sum,'=1+2/tiny_sum.cpp,accepted,"));
    for (const auto& report : {cls.file("summary.md"), cls.file("leaderboard.md")}) {
        CHECK_FALSE(contains(report, "\n# Forged heading"));
        CHECK_FALSE(contains(report, "\x1b"));
    }
    CHECK(contains(cls.file("summary.md"), "mallory\\n\\n# Forged heading"));
    CHECK(contains(cls.file("summary.md"), "- alice/x\\x1b]0;title\\x07\\n## Byte-identical sources: not_a_source"));
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
    CHECK(rows.at("erin/notes.txt").reason == "'notes.txt' is not a source file (.cpp, .py)");
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
    CHECK(contains(summary, "## Byte-identical sources\n\n- tiny_sum:\n  - alice\n  - dave smith\n"));
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

TEST_CASE("grade takes no symbolic links: a linked file or student folder is a row, never judged", "[grade]") {
    class_folder cls("grade_links");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    const std::filesystem::path secret = cls.dir().parent_path() / "grader_notes.cpp";
    std::ofstream(secret) << "the grader's own file\n";
    std::filesystem::create_directories(cls.dir() / "mallory");
    std::filesystem::create_symlink(secret, cls.dir() / "mallory" / "tiny_sum.cpp");
    std::filesystem::create_directory_symlink(cls.dir() / "alice", cls.dir() / "trudy");
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(rows.at("mallory/tiny_sum.cpp").status == "not_a_source");
    CHECK(rows.at("mallory/tiny_sum.cpp").reason == "a symbolic link: submissions are files of their own");
    CHECK(rows.at("trudy").status == "not_a_source");
    CHECK(rows.at("trudy").reason == "a symbolic link: student folders are folders of their own");
    CHECK_FALSE(contains(cls.file("gradebook.csv"), "the grader's own file"));
}

// A copy of the fixtures' tiny_sum at `dir` that accepts any answer (a student's planted problem).
void plant_lenient_tiny_sum(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", dir, std::filesystem::copy_options::recursive);
    std::string yaml = read_file_text(dir / "problem.yaml").value();
    const std::string tolerance = R"(atol: "10 * N * 6e-8", rtol: 1e-5)";
    yaml.replace(yaml.find(tolerance), tolerance.size(), "atol: 1e30, rtol: 0");
    std::ofstream(dir / "problem.yaml") << yaml;
}

TEST_CASE("grade . inside the class judges by the home's catalog, never a student folder named like a problem",
          "[grade]") {
    class_folder cls("grade_planted");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("mallory", "tiny_sum.cpp", "off_by_one");
    plant_lenient_tiny_sum(cls.dir() / "tiny_sum");  // a "student" folder: the class's problem, made lenient
    std::vector<std::string> argv = cls.argv({"--no-bench"});
    *std::find(argv.begin(), argv.end(), cls.dir().string()) = ".";
    argv.insert(argv.begin(), {"sh", "-c", "cd \"$0\" && exec \"$@\"", cls.dir().string()});
    const auto graded = run_command(argv, std::chrono::seconds(600));
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    CHECK(cls.rows().at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(cls.rows().at("mallory/tiny_sum.cpp").status == "wrong_answer");
}

TEST_CASE("names that are not UTF-8 are rows like any other, and every report is written", "[grade]") {
    // A red team's find: one student folder or file named with 0xff made grade exit 12 before the
    // JSON, the leaderboard and the summary were written, on every rerun.
    class_folder cls("grade_not_utf8");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bad\xff", "tiny_sum.cpp", "off_by_one");
    std::filesystem::create_directories(cls.dir() / "mallory");
    std::ofstream(cls.dir() / "mallory" / "notes\xff.txt") << "x";
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(rows.at("bad\xff/tiny_sum.cpp").status == "wrong_answer");
    CHECK(rows.at("mallory/notes\xff.txt").status == "not_a_source");
    const nlohmann::json book = nlohmann::json::parse(cls.file("gradebook.json"));
    CHECK(contains(book.dump(), "bad\xef\xbf\xbd/tiny_sum.cpp"));  // U+FFFD in place of the byte
    // ...and the bytes themselves beside it, where two names would read alike (bad\xfe, bad\xff).
    for (const auto& row : book)
        if (row.at("student") == "bad\xef\xbf\xbd") {
            CHECK(row.at("student_hex") == "626164ff");
            CHECK(row.at("file_hex") == hex_of("bad\xff/tiny_sum.cpp"));
        } else {
            CHECK_FALSE(row.contains("student_hex"));
        }
    CHECK(contains(cls.file("summary.md"), "- mallory/notes\\xff.txt: not_a_source"));  // as a terminal shows it
    CHECK(std::filesystem::exists(cls.run() / "leaderboard.md"));
    CHECK_FALSE(cls.file("summary.md").empty());
}

TEST_CASE("a wrapper file every student hands in is judged with each one's own headers", "[grade]") {
    // A red team's find: rows were keyed on the top file's bytes alone, so a student whose wrapper
    // matched a classmate's was given the classmate's verdict, and a changed header was "unchanged".
    class_folder cls("grade_wrappers");
    // The class lies in the test cache and its data folder, which a compile's sandbox hides but for
    // the source file itself: others, so that the compiler sees impl.h beside it.
    const temp_dir judge_folders("grade-folders");
    const auto grade = [&] {
        std::vector<std::string> argv = cls.argv({"--no-bench"});
        argv[1] = "GPUJUDGE_CACHE_DIR=" + (judge_folders.path() / "cache").string();  // argv(): env's first two
        argv[2] = "GPUJUDGE_DATA_DIR=" + (judge_folders.path() / "data").string();
        return run_command(argv, std::chrono::seconds(600));
    };
    const auto hand_in_wrapped = [&](const std::string& student, const std::string& solution) {
        cls.hand_in(student, "impl.h", solution);
        std::ofstream(cls.dir() / student / "tiny_sum.cpp") << "#include \"impl.h\"\n";
    };
    hand_in_wrapped("alice", "correct");
    REQUIRE(grade().exit.code == exit_accepted);
    REQUIRE(cls.rows().at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(cls.rows().at("alice/impl.h").reason == "a header: judged as part of the submissions that include it");
    hand_in_wrapped("carol", "off_by_one");
    const auto graded = grade();
    INFO(graded.output);
    CHECK(contains(graded.output, "1 to judge, 1 unchanged, 0 judged under another name"));
    CHECK(cls.rows().at("carol/tiny_sum.cpp").status == "wrong_answer");
    // Her header changes, her wrapper does not: no longer unchanged, and now carol's twin, whose
    // judgement holds for hers.
    cls.hand_in("alice", "impl.h", "off_by_one");
    CHECK(contains(grade().output, "0 to judge, 1 unchanged, 1 judged under another name"));
    CHECK(cls.rows().at("alice/tiny_sum.cpp").status == "wrong_answer");
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
    {
        spawn_options quiet;
        quiet.output_file = cls.root() / "first.log";
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
        ::kill(grading.pid(), SIGINT);  // Ctrl-C
        const auto ended = grading.wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
        CHECK_FALSE(ended.timed_out);
        CHECK(contains(read_file_text(cls.root() / "first.log").value_or(""),
                       "\ngrade: stopped; what was judged is kept in " + (cls.run() / "gradebook.db").string() +
                           ": grade the class again to go on where it stopped\n"));
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

TEST_CASE("each worker's runners see only its GPU, through their environment, and each row names it", "[grade]") {
    class_folder cls("grade_gpus");
    for (int i = 0; i < 6; ++i)  // distinct bytes: each judged on whichever worker is free
        cls.hand_in("student" + std::to_string(i), "tiny_sum.cpp", "reports_visible_gpu",
                    "// " + std::to_string(i) + "\n");
    // The judge's own CUDA_VISIBLE_DEVICES names another GPU: a runner's is its worker's.
    const auto graded = cls.grade({"--gpus", "0,1", "--no-bench"}, {"CUDA_VISIBLE_DEVICES=5"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto rows = cls.rows();
    REQUIRE(rows.size() == 6);
    for (const auto& [file, row] : rows) {
        INFO(file << ": " << row.reason);
        CHECK(row.status == "wrong_answer");
        REQUIRE(row.gpu_index.has_value());
        CHECK((*row.gpu_index == 0 || *row.gpu_index == 1));
        // 1000 + CUDA_VISIBLE_DEVICES, + 100 for CUDA_DEVICE_ORDER=PCI_BUS_ID (reports_visible_gpu.cpp)
        CHECK(contains(row.reason, "output[0]: expected 6.5, got " + std::to_string(1100 + *row.gpu_index)));
    }
    CHECK(contains(cls.file("gradebook.csv"), ",source_hash,gpu,gpu_index,judged_at,"));
    const auto json = nlohmann::json::parse(cls.file("gradebook.json"));
    CHECK(json.at(0).at("gpu_index").is_number_integer());
    CHECK(contains(graded.output, "workers busy: gpu0 "));
    CHECK_FALSE(contains(graded.output, "is not among"));  // the host backend opens no GPU: no warning of one
    CHECK(contains(graded.output, " gpu1 "));
    // Noted for serve's Leaderboard: the latest grade's run folder, in the data folder.
    CHECK(cls.note() == cls.run().string() + "\n");

    const auto bad = cls.grade({"--gpus", "0,GPU-1a2b"});
    CHECK(bad.exit.code == exit_usage);
    CHECK(contains(bad.output, "gpujudge: --gpus: 'GPU-1a2b' is not a GPU number (nvidia-smi's: 0, 1, ...)\n"));
}

TEST_CASE("a worker's runner is given its GPU in its settings, never through a launcher", "[grade]") {
    runner_settings base;
    base.runner_exe = "/bin/true";
    const runner_settings worker = worker_runner(base, 1, true);
    CHECK(worker.gpu == std::optional<int>(1));
    CHECK(worker.launcher.empty());
    CHECK_FALSE(worker_runner(base, 1, false).gpu);  // a Slurm task: Slurm chose its GPU
    CHECK_FALSE(worker_runner(base, -1, true).gpu);  // not known by number
    CHECK(gpu_number("12") == std::optional<int>(12));
    CHECK_FALSE(gpu_number("0,1"));
    CHECK_FALSE(gpu_number("MIG-4d1a"));
    CHECK_FALSE(gpu_number(""));
}

TEST_CASE("a gradebook of an earlier version gains gpu_index when graded into, and is read without changing it",
          "[grade]") {
    const temp_dir dir("old-gradebook");
    const auto path = dir.path() / "gradebook.db";
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    const auto columns_of = [&]() {
        std::string names;
        sqlite3_exec(
            db, "SELECT name FROM pragma_table_info('rows')",
            [](void* out, int, char** values, char**) {
                *static_cast<std::string*>(out) += std::string(values[0]) + " ";
                return 0;
            },
            &names, nullptr);
        return names;
    };
    REQUIRE(sqlite3_exec(db,
                         "CREATE TABLE rows (file TEXT PRIMARY KEY, student TEXT, problem TEXT, status TEXT,"
                         " passed INTEGER, total INTEGER, median_us REAL, gbps REAL, percent_of_ceiling REAL,"
                         " speedup REAL, ceiling_gbps REAL, source_hash TEXT, spec_hash TEXT, gpu TEXT,"
                         " judged_at TEXT, wall_s REAL, reason TEXT);"
                         "INSERT INTO rows VALUES ('alice/tiny_sum.cpp', 'alice', 'tiny_sum', 'accepted', 4, 4, 12.5,"
                         " 3.2, NULL, NULL, NULL, 'h1', 's1', 'host', '2024-01-01 00:00:00', 1.5, '')",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    {
        const gradebook old(path, gradebook::access::read);
        const auto rows = old.rows();
        REQUIRE(rows.size() == 1);
        CHECK(rows[0].median_us == std::optional<double>(12.5));
        CHECK_FALSE(rows[0].gpu_index);
    }
    CHECK(columns_of().find("gpu_index") == std::string::npos);  // reading changed nothing
    {
        gradebook book(path);
        grade_row row = book.rows().at(0);
        row.file = "bob/tiny_sum.cpp";
        row.student = "bob";
        row.gpu_index = 1;
        book.store(row);
        const auto rows = book.rows();
        REQUIRE(rows.size() == 2);
        CHECK_FALSE(rows[0].gpu_index);
        CHECK(rows[1].gpu_index == std::optional<int>(1));
    }
    CHECK(columns_of().find("gpu_index") != std::string::npos);
    sqlite3_close(db);
    CHECK_THROWS_WITH(gradebook(dir.path() / "none.db", gradebook::access::read),
                      (dir.path() / "none.db").string() + ": no gradebook there (gpujudge grade writes one)");
    std::ofstream(dir.path() / "other.db") << "";  // an empty file is an empty database, with no rows table
    CHECK_THROWS_WITH(gradebook(dir.path() / "other.db", gradebook::access::read),
                      (dir.path() / "other.db").string() + ": not a gradebook (it has no table of rows)");
}

TEST_CASE("one ranking: by time within a GPU model, by % of ceiling across models, in Markdown and JSON", "[grade]") {
    const auto row = [](std::string student, std::string gpu, int index, double median, double percent) {
        grade_row r;
        r.file = student + "/reduction.cu";
        r.student = student;
        r.problem = "reduction";
        r.status = "accepted";
        r.gpu = gpu;
        r.gpu_index = index;
        r.median_us = median;
        r.percent_of_ceiling = percent;
        return r;
    };
    grade_row wrong = row("erin", "H100", 0, 1, 99);
    wrong.status = "wrong_answer";
    const std::vector<grade_row> rows{row("alice", "H100", 0, 140, 90), row("bob", "H100", 1, 130, 97),
                                      row("carol", "A100", 0, 200, 95), wrong};
    const auto boards = rank_leaderboards(rows);
    REQUIRE(boards.size() == 1);
    REQUIRE(boards[0].by_gpu.size() == 2);
    CHECK(boards[0].by_gpu[0].gpu == "A100");
    CHECK(boards[0].by_gpu[1].rows.at(0).student == "bob");
    CHECK(boards[0].by_gpu[1].rows.at(1).student == "alice");
    REQUIRE(boards[0].across_models.size() == 3);
    CHECK(boards[0].across_models[1].student == "carol");

    const std::string board = leaderboard_markdown(rows);
    CHECK(contains(board,
                   "### On H100\n\n| # | student | median µs | GB/s | % of ceiling | × baseline | GPU |\n"
                   "|---|---|---|---|---|---|---|\n| 1 | bob | 130.0 |  | 97.0 |  | gpu1 |\n"));
    CHECK(contains(board, "| 2 | carol | A100 (gpu0) | 95.0 | 200.0 |"));
    const auto json = leaderboard_json(rows);
    REQUIRE(json.size() == 1);
    CHECK(json[0]["problem"] == "reduction");
    CHECK(json[0]["by_gpu"][1]["gpu"] == "H100");
    nlohmann::json bob = gradebook_json({rows[1]})[0];  // as gradebook.json holds it, with its rank
    bob["rank"] = 1;
    CHECK(json[0]["by_gpu"][1]["ranked"][0] == bob);
    CHECK(bob["gpu_index"] == 1);
    CHECK(bob["median_us"] == 130.0);
    CHECK(json[0]["across_models"].size() == 3);
    CHECK(leaderboard_json({row("alice", "H100", 0, 140, 90)})[0]["across_models"].empty());  // one model
}

TEST_CASE("grade without a GPU stops before judging anyone, exit 6, and a GPU named twice is a usage error",
          "[grade]") {
    class_folder twice("grade_gpu_twice");
    twice.hand_in("alice", "tiny_sum.cpp", "correct");
    const auto named_twice = twice.grade({"--gpus", "0,1,0", "--no-bench"});
    CHECK(named_twice.exit.code == exit_usage);
    CHECK(contains(named_twice.output, "gpujudge: --gpus: GPU 0 is named twice (one worker per GPU)\n"));
    // Refused before the run folder is claimed: one left with its notes and no gradebook refused every
    // later grade into it ("holds other files and no gradebook").
    CHECK_FALSE(std::filesystem::exists(twice.run()));
    CHECK(twice.grade({"--no-bench"}).exit.code == exit_accepted);

    // A GPU that nvidia-smi does not list (here a stand-in listing two) would judge nothing.
    class_folder unlisted("grade_gpu_unlisted", kFixtures, "device");
    unlisted.hand_in("alice", "tiny_sum.cu", "correct");
    unlisted.slurm_command("nvidia-smi", "echo '0, NVIDIA H200'; echo '1, NVIDIA H200'\n");
    const auto beyond = unlisted.grade({"--gpus", "1,9", "--no-bench"}, {unlisted.path()});
    CHECK(beyond.exit.code == exit_usage);
    CHECK(contains(beyond.output, "gpujudge: --gpus: GPU 9 is not among the 2 that nvidia-smi lists (0, 1)\n"));
    CHECK_FALSE(std::filesystem::exists(unlisted.run()));

    if (!nvidia_gpus().empty()) {
        WARN("skipped: this machine has a GPU");
        return;
    }
    class_folder cls("grade_no_gpu", kFixtures, "device");
    cls.hand_in("alice", "tiny_sum.cu", "correct");
    cls.hand_in("bob", "tiny_sum.cu", "off_by_one");
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    CHECK(graded.exit.code == exit_no_device);
    const auto at = graded.output.find("grade: no GPU here (");
    REQUIRE(at != std::string::npos);
    const std::string line = graded.output.substr(at, graded.output.find('\n', at) - at);
    CHECK(ends_with(line, "): nothing was judged; grade on a machine with a GPU, or through Slurm (--slurm)"));
    CHECK_FALSE(contains(graded.output, "no_device"));
    CHECK_FALSE(contains(graded.output, "is not among the"));  // no GPU listed: no node to leave unbound
    CHECK(cls.rows().empty());
}

TEST_CASE(
    "grade: a broken problem.yaml is reported once, its rows are the problem's, not the students' failures, exit 10",
    "[grade]") {
    const temp_dir home("grade-broken-home");
    const auto problems = home.path() / "problems";
    std::filesystem::create_directories(problems);
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", problems / "tiny_sum");
    std::filesystem::copy(kFixtures + "/problems/tiny_sum", problems / "tiny_broken");
    std::ofstream(problems / "tiny_broken" / "problem.yaml", std::ios::app) << "  bogus: [\n";
    // The problem's own error, as validate reports it.
    const auto validated = run_command(
        {GPUJUDGE_BIN_DIR "/gpujudge", "--color", "never", "--home", home.path().string(), "validate", "tiny_broken"},
        std::chrono::seconds(300));
    REQUIRE(validated.exit.code == exit_invalid_problem);
    const std::string yaml = (problems / "tiny_broken" / "problem.yaml").string() + ":";
    const auto at = validated.output.find(yaml);  // "FAIL  tiny_broken\n  <path>:<line>: <message>"
    REQUIRE(at != std::string::npos);
    const std::string error = validated.output.substr(at, validated.output.find('\n', at) - at);

    class_folder cls("grade_broken_problem", home.path().string());
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("alice", "tiny_broken.cpp", "correct");
    cls.hand_in("bob", "tiny_broken.cpp", "off_by_one");
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    CHECK(graded.exit.code == exit_invalid_problem);
    CHECK(contains(graded.output, "1 to judge, 0 unchanged, 0 judged under another name, 0 not submissions"));
    CHECK(contains(graded.output, error +
                                      "\ngrade: problem tiny_broken is invalid: its 2 submissions were not judged (not "
                                      "counted against the students): gpujudge validate tiny_broken, then grade "
                                      "again\n"));
    const auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    for (const std::string file : {"alice/tiny_broken.cpp", "bob/tiny_broken.cpp"}) {
        CHECK(rows.at(file).status == "invalid_problem");
        CHECK(rows.at(file).reason == "problem tiny_broken is invalid: " + error);
    }
    const std::string summary = cls.file("summary.md");
    CHECK(contains(summary, "| tiny_sum | 1 | 1 | 0 | 0 |"));
    CHECK_FALSE(contains(summary, "| tiny_broken |"));
    CHECK(contains(summary, "## Invalid problems\n\n- tiny_broken: 2 submissions not judged: " + error + "\n"));
}

TEST_CASE("grade writes each file's feedback: what submit would print, lent with a judgement, gone with its file",
          "[grade]") {
    class_folder cls("grade_feedback");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    cls.hand_in("dave", "tiny_sum.cpp", "off_by_one");  // bob's bytes: his judgement, and his feedback, lent
    cls.hand_in("erin", "notes.txt", "correct");
    cls.hand_in("frank", std::string(240, 'n') + ".txt", "correct");  // no room left for ".txt" in a name
    std::filesystem::create_directories(cls.dir() / "carol");
    std::ofstream(cls.dir() / "carol" / "tiny_sum.cpp")  // two errors: the row keeps the first alone
        << "extern \"C\" void solve(const float* input, float* output, int N) {\n    output[0] = input[0]\n}\n"
           "void other() { undeclared_name = 1; }\n";
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto feedback = [&](const std::string& file) { return cls.file("feedback/" + file + ".txt"); };

    const std::string carol = feedback("carol/tiny_sum.cpp");
    INFO(carol);
    CHECK(contains(carol, "problem  Tiny Sum (tiny_sum)\n"));
    CHECK(contains(carol, "compile  failed\n"));
    CHECK(contains(carol, "carol/tiny_sum.cpp:2:25: error: expected"));
    CHECK(contains(carol, "carol/tiny_sum.cpp:4:16: error: "));  // the second error, which the row's reason lacks
    CHECK_FALSE(contains(cls.rows().at("carol/tiny_sum.cpp").reason, ":4:16:"));
    CHECK(contains(carol, "verdict: compile_error\n"));

    const std::string bob = feedback("bob/tiny_sum.cpp");
    INFO(bob);
    CHECK(contains(bob, "source   bob/tiny_sum.cpp\n"));
    CHECK(contains(bob, "wrong_answer\n"));  // a test's line, then its message
    CHECK((contains(bob, "verdict: wrong_answer (0/4 tests passed)\n") ||
           contains(bob, "verdict: wrong_answer (1/4 tests passed)\n")));
    CHECK(contains(feedback("alice/tiny_sum.cpp"), "verdict: accepted (4/4 tests passed)\n"));
    // Judged once, under bob's name: dave's feedback is the same report, naming dave's file.
    const std::string dave = feedback("dave/tiny_sum.cpp");
    CHECK(dave.find("bob/") == std::string::npos);
    CHECK(dave.size() == bob.size() + 1);  // "dave" is one letter longer than "bob", named once
    CHECK(contains(dave, "source   dave/tiny_sum.cpp\n"));
    CHECK(feedback("erin/notes.txt") ==
          "source   erin/notes.txt\nstatus: not_a_source\n  'notes.txt' is not a source file (.cpp, .py)\n");
    const std::filesystem::directory_iterator frank(cls.run() / "feedback" / "frank");
    REQUIRE(frank != std::filesystem::directory_iterator());
    CHECK(frank->path().filename().string().size() == 20);  // a hash of the name, ".txt"
    CHECK(contains(cls.file("feedback/frank/" + frank->path().filename().string()), "status: not_a_source\n"));
    CHECK_FALSE(contains(cls.file("gradebook.csv"), "verdict:"));  // the feedback is not in the gradebook's files
    CHECK_FALSE(contains(cls.file("gradebook.json"), "verdict:"));

    std::filesystem::remove(cls.dir() / "erin" / "notes.txt");
    const auto again = cls.grade({"--no-bench"});
    CHECK(again.exit.code == exit_accepted);
    CHECK(feedback("bob/tiny_sum.cpp") == bob);  // unchanged: not judged again, its feedback kept
    CHECK_FALSE(std::filesystem::exists(cls.run() / "feedback" / "erin" / "notes.txt.txt"));
    CHECK(contains(feedback("erin/erin"), "status: empty_folder\n"));
}

TEST_CASE("grade: an empty folder's feedback and a student's named like it do not collide", "[grade]") {
    class_folder cls("grade_feedback_names");
    std::filesystem::create_directories(cls.dir() / "kate");
    cls.hand_in("kate.txt", "tiny_sum.cpp", "correct");  // its feedback folder was kate's file's name
    std::ofstream(cls.dir() / "loose.cpp") << "// outside any student folder\n";
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    CHECK(graded.exit.code == exit_accepted);
    CHECK_FALSE(contains(graded.output, "no feedback for"));
    CHECK(contains(cls.file("feedback/kate/kate.txt"), "status: empty_folder\n"));
    CHECK(contains(cls.file("feedback/kate.txt/tiny_sum.cpp.txt"), "verdict: accepted"));
    CHECK(contains(cls.file("feedback/loose.cpp/loose.cpp.txt"), "status: not_a_source\n"));
}

TEST_CASE("grade: a compile error's reason is the compiler's first error line, not its 'In function' line", "[grade]") {
    class_folder cls("grade_compile_reason");
    std::filesystem::create_directories(cls.dir() / "carol");
    std::ofstream(cls.dir() / "carol" / "tiny_sum.cpp")
        << "extern \"C\" void solve(const float* input, float* output, int N) {\n    output[0] = input[0]\n}\n";
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    REQUIRE(graded.exit.code == exit_accepted);
    const auto carol = cls.rows().at("carol/tiny_sum.cpp");
    CHECK(carol.status == "compile_error");
    // gcc quotes as the locale lets it: ‘;’ in a UTF-8 one, ';' in C.
    INFO(carol.reason);
    CHECK((ends_with(carol.reason, "carol/tiny_sum.cpp:2:25: error: expected ‘;’ before ‘}’ token") ||
           ends_with(carol.reason, "carol/tiny_sum.cpp:2:25: error: expected ';' before '}' token")));
}

TEST_CASE("grade: a compile error's reason is gcc's or nvcc's error line, past context and warnings", "[grade]") {
    CHECK(compile_error_reason("x.cpp: In function 'void solve(const float*, float*, int)':\n"
                               "x.cpp:2:24: error: expected ';' before '}' token\n    2 |   output[0] = input[0]\n") ==
          "x.cpp:2:24: error: expected ';' before '}' token");
    CHECK(compile_error_reason("x.cu(3): warning #177-D: variable \"error\" was declared but never referenced\n"
                               "x.cu(5): error: identifier \"foo\" is undefined\n\n1 error detected\n") ==
          "x.cu(5): error: identifier \"foo\" is undefined");
    CHECK(compile_error_reason("x.cu:1:10: fatal error: impl.h: No such file or directory\n") ==
          "x.cu:1:10: fatal error: impl.h: No such file or directory");
    CHECK(compile_error_reason("x.cu(7): catastrophic error: cannot open source file \"a.h\"\n") ==
          "x.cu(7): catastrophic error: cannot open source file \"a.h\"");
    // Escaped: bench and validate print it as it is, and the compiler quotes the source's #error.
    CHECK(compile_error_reason("x.cu:1:2: error: #error \x1b[2Jverdict: accepted\n") ==
          "x.cu:1:2: error: #error \\x1b[2Jverdict: accepted");
    CHECK(compile_error_reason("nvcc fatal   : Unsupported gpu architecture 'sm_999'\n") ==
          "nvcc fatal   : Unsupported gpu architecture 'sm_999'");
    CHECK(compile_error_reason("\nthe file holds NUL bytes: not a source\n") ==
          "the file holds NUL bytes: not a source");
    CHECK(compile_error_reason("x.cu(9): error #20: identifier \"n\" is undefined\n") ==
          "x.cu(9): error #20: identifier \"n\" is undefined");
    CHECK(compile_error_reason(
              "/c/error/tiny_sum.cpp: In function 'void solve()':\n/c/error/tiny_sum.cpp:2:1: error: x\n") ==
          "/c/error/tiny_sum.cpp:2:1: error: x");
    CHECK(compile_error_reason("") == "");
}

TEST_CASE("grade: files and folders gone from the class leave the gradebook and every report on a rerun", "[grade]") {
    class_folder cls("grade_removed");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    cls.hand_in("carol", "tiny_sum.cpp", "correct", "// carol\n");
    cls.hand_in("hank smith", "tiny_sum.cpp", "correct", "// hank\n");
    std::filesystem::create_directories(cls.dir() / "gina");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    REQUIRE(cls.rows().size() == 5);

    std::filesystem::rename(cls.dir() / "hank smith", cls.dir() / "hank_smith");  // the TA fixes a name
    std::filesystem::remove_all(cls.dir() / "bob");                               // a student withdraws
    std::filesystem::remove(cls.dir() / "carol" / "tiny_sum.cpp");                // a student takes a file back
    cls.hand_in("gina", "tiny_sum.cpp", "correct", "// gina\n");                  // the empty folder is filled
    const auto again = cls.grade({"--no-bench"});
    INFO(again.output);
    REQUIRE(again.exit.code == exit_accepted);
    CHECK(contains(again.output,
                   "1 to judge, 1 unchanged, 1 judged under another name, 1 not submissions, 4 removed "
                   "(no longer in the class folder)\n"));
    std::vector<std::string> files;
    for (const auto& [file, row] : cls.rows()) files.push_back(file);
    CHECK(files ==
          std::vector<std::string>{"alice/tiny_sum.cpp", "carol/", "gina/tiny_sum.cpp", "hank_smith/tiny_sum.cpp"});
    CHECK_FALSE(contains(cls.file("gradebook.csv"), "hank smith"));
    CHECK_FALSE(contains(cls.file("gradebook.json"), "bob"));
    CHECK(contains(cls.file("summary.md"), "| tiny_sum | 3 | 3 | 0 | 0 |"));
    CHECK_FALSE(contains(cls.file("summary.md"), "gina/"));
    CHECK(contains(cls.file("summary.md"), "- carol/: empty_folder"));
}

TEST_CASE("grade: a folder that cannot be listed is no empty folder, and no row judged before is removed", "[grade]") {
    class_folder cls("grade_unlisted");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    // A folder of mode 000 is what an NFS error or another owner's folder is to a grader: one that cannot
    // be listed. Root lists it all the same, unless it runs without the capabilities that let it
    // (setpriv, of util-linux); another user does not.
    std::vector<std::string> unprivileged;
    if (geteuid() == 0) unprivileged = {"setpriv", "--bounding-set=-dac_override,-dac_read_search"};
    const auto grade_unprivileged = [&] {
        std::vector<std::string> all = cls.argv({"--no-bench"});
        all.insert(all.begin(), unprivileged.begin(), unprivileged.end());
        return run_command(all, std::chrono::seconds(600));
    };
    struct readable_again {  // whatever a check does, the folders are removable after
        std::filesystem::path dir;
        ~readable_again() {
            std::error_code ignored;
            std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ignored);
            std::filesystem::permissions(dir / "bob", std::filesystem::perms::owner_all, ignored);
        }
    } restore{cls.dir()};
    std::filesystem::permissions(cls.dir() / "bob", std::filesystem::perms::none);
    const auto student = grade_unprivileged();
    std::filesystem::permissions(cls.dir() / "bob", std::filesystem::perms::owner_all);
    INFO(student.output);
    CHECK(student.exit.code == exit_accepted);
    CHECK(
        contains(student.output, "0 to judge, 1 unchanged, 0 judged under another name, 1 not submissions, 0 removed"));
    const auto rows = cls.rows();
    CHECK(rows.at("bob/tiny_sum.cpp").status == "wrong_answer");  // kept, as judged before
    CHECK(rows.at("bob/").status == "unreadable");
    CHECK(rows.at("bob/").reason ==
          "the student folder cannot be listed (Permission denied): its rows judged before are kept");

    std::filesystem::permissions(cls.dir(), std::filesystem::perms::none);
    const auto whole = grade_unprivileged();
    std::filesystem::permissions(cls.dir(), std::filesystem::perms::owner_all);
    CHECK(whole.exit.code == exit_environment);
    CHECK(whole.output == "gpujudge: grade: " + cls.dir().string() +
                              ": the class folder cannot be listed (Permission denied); nothing was changed\n");
    CHECK(cls.rows().size() == 3);
}

TEST_CASE("grade: a gradebook the disk cannot take is the machine's fault, exit 13, not an internal error", "[grade]") {
    class_folder cls("grade_disk_full");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    std::string line = "trap '' XFSZ; ulimit -f 12; exec";  // 12 KiB: the gradebook's first pages fail
    for (const auto& arg : cls.argv({"--no-bench"})) line += " '" + arg + "'";
    const auto full = run_command({"sh", "-c", line}, std::chrono::seconds(600));
    INFO(full.output);
    CHECK(full.exit.code == exit_environment);
    CHECK(contains(full.output, "gpujudge: " + (cls.run() / "gradebook.db").string() + ": gradebook: disk I/O error "));
    CHECK(contains(full.output,
                   "(a full disk or quota, or a file that cannot be written: a fault of the machine, not of "
                   "gpujudge)\n"));
    CHECK_FALSE(contains(full.output, "internal error"));
}

TEST_CASE("rows a grade judged without the sandbox are judged again by a grade with it", "[grade]") {
    // Code that ran unconfined could have written the gradebook itself: a later grade took its rows as
    // unchanged.
    class_folder cls("grade_unconfined");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    const auto unconfined = cls.grade({"--no-bench", "--no-sandbox"});
    INFO(unconfined.output);
    CHECK(contains(unconfined.output, "(a grade's rows are, marked: a grade with the sandbox judges them again)"));
    CHECK(contains(unconfined.output, "1 to judge, 0 unchanged"));
    CHECK(contains(cls.grade({"--no-bench"}).output, "1 to judge, 0 unchanged"));
    CHECK(contains(cls.grade({"--no-bench"}).output, "0 to judge, 1 unchanged"));
}

TEST_CASE("a grade with timing times what an earlier --no-bench grade accepted", "[grade]") {
    class_folder cls("grade_time_later");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    REQUIRE_FALSE(cls.rows().at("alice/tiny_sum.cpp").median_us);
    const auto timed = cls.grade({});
    INFO(timed.output);
    REQUIRE(timed.exit.code == exit_accepted);
    CHECK(contains(timed.output, "1 to judge, 1 unchanged, 0 judged under another name"));
    CHECK(contains(timed.output, "1 accepted without timing (--no-bench): judged again, timed\n"));
    CHECK(cls.rows().at("alice/tiny_sum.cpp").median_us.has_value());
    CHECK(contains(cls.file("leaderboard.md"), "| 1 | alice |"));
    CHECK(contains(cls.grade({}).output, "0 to judge, 2 unchanged"));
    CHECK(contains(cls.grade({"--no-bench"}).output, "0 to judge, 2 unchanged"));  // the times stay
    const auto timed_row = cls.rows().at("alice/tiny_sum.cpp");
    REQUIRE(timed_row.median_us.has_value());
    // Judged again without timing (a reference fixed, say): its times stay, and so does its place.
    CHECK(contains(cls.grade({"--no-bench", "--rejudge"}).output, "2 to judge"));
    const auto rejudged = cls.rows().at("alice/tiny_sum.cpp");
    CHECK(rejudged.median_us == timed_row.median_us);
    CHECK(rejudged.judged_at >= timed_row.judged_at);
    CHECK(contains(cls.file("leaderboard.md"), "| 1 | alice |"));
}

TEST_CASE("a problem broken for one grade keeps the judgements made before, and restored judges nothing again",
          "[grade]") {
    class_folder cls("grade_problem_breaks", "");
    const auto home = cls.own_home();
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    const auto with_home = [&](const std::vector<std::string>& args) {
        return run_command(cls.argv(args, home), std::chrono::seconds(600));
    };
    REQUIRE(with_home({"--no-bench"}).exit.code == exit_accepted);
    const auto yaml = home / "problems" / "tiny_sum" / "problem.yaml";
    const std::string kept = read_file_text(yaml).value();
    std::string edited = kept;  // a maintainer mid-edit
    edited.replace(edited.find("time_limit_ms: 500"), 18, "time_limit_ms: [oops]");
    std::ofstream(yaml, std::ios::trunc) << edited;
    cls.hand_in("carol", "tiny_sum.cpp", "correct");  // handed in meanwhile: not judged
    const auto broken = with_home({"--no-bench"});
    INFO(broken.output);
    CHECK(broken.exit.code == exit_invalid_problem);
    CHECK(contains(broken.output,
                   "grade: problem tiny_sum is invalid: its 3 submissions were not judged (2 of them keep their "
                   "judgements from before the problem broke; not counted against the students): gpujudge validate "
                   "tiny_sum, then grade again\n"));
    auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(rows.at("bob/tiny_sum.cpp").status == "wrong_answer");
    CHECK(rows.at("carol/tiny_sum.cpp").status == "invalid_problem");
    std::ofstream(yaml, std::ios::trunc) << kept;
    const auto restored = with_home({"--no-bench"});
    INFO(restored.output);
    CHECK(restored.exit.code == exit_accepted);
    CHECK(contains(restored.output, "0 to judge, 2 unchanged, 1 judged under another name"));  // carol's: alice's bytes
    CHECK(cls.rows().at("carol/tiny_sum.cpp").status == "accepted");
}

TEST_CASE("grade --slurm: the manifest keeps names and paths byte for byte, UTF-8 or not", "[grade][slurm]") {
    CHECK(hex_of("jos\xe9") == "6a6f73e9");
    CHECK(from_hex("6A6f73e9") == "jos\xe9");
    CHECK_THROWS_WITH(from_hex("6g"), "'6g' is not hex: not a grade's manifest");
    CHECK_THROWS_WITH(from_hex("6a6"), "'6a6' is not hex: not a grade's manifest");
    grade_job jose;
    jose.entry.file = "jos\xe9/tiny_sum.cpp";
    jose.entry.student = "jos\xe9";
    jose.entry.problem = "tiny_sum";
    jose.entry.path = "/class/jos\xe9/tiny_sum.cpp";
    jose.source_hash = "h1";
    jose.spec_hash = "s1";
    grade_job same = jose;  // a folder literally named "jos\u{FFFD}": once the same manifest entry as jose's
    same.entry.file = "jos\xef\xbf\xbd/tiny_sum.cpp";
    same.entry.student = "jos\xef\xbf\xbd";
    same.entry.path = "/class/jos\xef\xbf\xbd/tiny_sum.cpp";
    const auto back = jobs_of(nlohmann::json::parse(json_text(manifest_of({jose, same}, 1, true), 2)));
    REQUIRE(back.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        const grade_job& sent = i ? same : jose;
        CHECK(back[i].entry.file == sent.entry.file);
        CHECK(back[i].entry.student == sent.entry.student);
        CHECK(back[i].entry.problem == "tiny_sum");
        CHECK(back[i].entry.path == sent.entry.path);
        CHECK(back[i].source_hash == "h1");
    }
    // A manifest written before the names were hex (a job submitted before an upgrade) still reads.
    const auto older = jobs_of(nlohmann::json::parse(
        R"({"tasks": 1, "timed": true, "entries": [{"file": "a/tiny_sum.cpp", "student": "a", "problem": "tiny_sum",
            "path": "/class/a/tiny_sum.cpp", "source_hash": "h", "spec_hash": "s"}]})"));
    REQUIRE(older.size() == 1);
    CHECK(older[0].entry.path == "/class/a/tiny_sum.cpp");
}

TEST_CASE("grade --slurm: a task hides the class folder its manifest's files lie in, as a local grade does",
          "[grade][slurm]") {
    // A task hid the run folder alone: a classmate's hand-in showed wherever a bind (a course repository on
    // Python's path) held the class folder.
    grade_job job;
    job.entry.file = "grace o'neil/tiny_sum.cpp";
    job.entry.path = "/courses/cs101/class/grace o'neil/tiny_sum.cpp";
    CHECK(class_folder_of(job) == "/courses/cs101/class");
    job.entry.path = "/elsewhere/tiny_sum.cpp";  // not where its key says: no folder named (never "/")
    CHECK(class_folder_of(job).empty());
}

TEST_CASE("grade --slurm: an sbatch refusal is sbatch's own message, exit 13, and leaves no job folder behind",
          "[grade][slurm]") {
    class_folder cls("grade_sbatch_refuses");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.slurm_command("sbatch", "echo 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n");
    const auto refused = cls.grade({"--slurm", "--partition", "nope", "--no-bench"}, {cls.path()});
    INFO(refused.output);
    CHECK(refused.exit.code == exit_environment);
    CHECK(contains(refused.output,
                   "gpujudge: sbatch refused the job array (exit status 1): sbatch: error: invalid "
                   "partition specified: nope\n"));
    CHECK_FALSE(contains(refused.output, "internal error"));
    CHECK_FALSE(std::filesystem::exists(cls.run() / "slurm" / "job-1"));
}

TEST_CASE("stopped while it waits for its Slurm job, grade says the array goes on, its id, how to collect or cancel",
          "[grade][slurm]") {
    class_folder cls("grade_slurm_stopped");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.slurm_command("sbatch", "echo 4242\n");
    cls.slurm_command("squeue", "echo '0|PENDING'\n");  // pending for ever
    std::vector<std::string> argv = cls.argv({"--slurm", "--no-bench"});
    argv.insert(argv.begin() + 1, cls.path());  // after "env"
    spawn_options options;
    options.output_file = cls.root() / "grade.out";
    child_process grading(argv, options);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!std::filesystem::exists(cls.run() / "slurm" / "job-1" / "job.json") &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE(std::filesystem::exists(cls.run() / "slurm" / "job-1" / "job.json"));
    std::this_thread::sleep_for(std::chrono::seconds(2));  // following the job now
    ::kill(grading.pid(), SIGINT);
    const auto ended = grading.wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
    CHECK_FALSE(ended.timed_out);
    std::ifstream in(cls.root() / "grade.out");
    const std::string output((std::istreambuf_iterator<char>(in)), {});
    INFO(output);
    CHECK(contains(output, "submitted 1 submission as Slurm job array 4242 ("));  // stdout, though redirected
    CHECK(contains(output,
                   "\ngrade: stopped waiting; Slurm job array 4242 goes on: collect it with gpujudge grade "
                   "--collect " +
                       cls.run().string() + ", or cancel it with scancel 4242\n"));
}

// Whether a process whose command line holds every one of `parts` is running (a sandboxed one too).
bool running_with(const std::vector<std::string>& parts) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string line((std::istreambuf_iterator<char>(in)), {});
        std::replace(line.begin(), line.end(), '\0', ' ');
        if (std::all_of(parts.begin(), parts.end(), [&](const std::string& part) { return contains(line, part); }))
            return true;
    }
    return false;
}

TEST_CASE(
    "grade: a header rewritten, or a file moved away, between the scan and the compile makes the row "
    "unreadable, never judged",
    "[grade]") {
    // A red team's race: the plan hashed mallory's wrong header, a right one was compiled and judged, and the
    // row kept the wrong header's hash: accepted then, and lent to every copy of the wrong files. A QA's: bob's
    // file, gone at its compile, was a compile_error kept under the scan's hash, then a copy's verdict.
    class_folder cls("grade_header_swap");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "correct");
    std::filesystem::create_directories(cls.dir() / "mallory");
    std::ofstream(cls.dir() / "mallory" / "tiny_sum.cpp")
        << "#include \"impl.h\"\n"
           "extern \"C\" void solve(const float* input, float* output, int N) { output[0] = impl_sum(input, N); }\n";
    std::ofstream(cls.dir() / "mallory" / "impl.h") << "inline float impl_sum(const float* x, int) { return x[0]; }\n";
    // The one compile at a time (each may take all memory) waits in alice's until the test says go.
    const auto go = cls.root() / "bin" / "go";
    cls.slurm_command("c++", "case \"$*\" in *alice/tiny_sum.cpp*) while [ ! -e " + go.string() +
                                 " ]; do sleep 0.1; done;; esac\nexec /usr/bin/c++ \"$@\"\n");
    std::vector<std::string> argv = cls.argv({"--no-bench"});
    argv.insert(argv.begin() + 1, {cls.path(), "GPUJUDGE_COMPILE_MEMORY_LIMIT_MB=536870912"});
    // Data and cache folders beside the class folder, not around it: the judge's own folders show no header.
    *std::find(argv.begin(), argv.end(), "GPUJUDGE_DATA_DIR=" + cls.root().string()) =
        "GPUJUDGE_DATA_DIR=" + (cls.root() / "data").string();
    *std::find(argv.begin(), argv.end(), std::string("GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE)) =
        "GPUJUDGE_CACHE_DIR=" + (cls.root() / "cache").string();
    spawn_options options;
    options.output_file = cls.root() / "grade.out";
    child_process grading(argv, options);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!running_with({(cls.root() / "bin" / "c++").string(), "alice/tiny_sum.cpp"}) &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    // The plan has hashed mallory's files: a right header now, for the compile alone.
    std::ofstream(cls.dir() / "mallory" / "impl.h")
        << "inline float impl_sum(const float* x, int n) { double s = 0; for (int i = 0; i < n; ++i) s += x[i]; "
           "return static_cast<float>(s); }\n";
    std::filesystem::rename(cls.dir() / "bob" / "tiny_sum.cpp", cls.root() / "bob-away.cpp");
    std::ofstream(go) << "go\n";
    const auto ended = grading.wait(std::chrono::steady_clock::now() + std::chrono::seconds(600));
    std::ifstream in(cls.root() / "grade.out");
    INFO(std::string((std::istreambuf_iterator<char>(in)), {}));
    REQUIRE_FALSE(ended.timed_out);
    const auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").status == "accepted");
    for (const char* moved : {"mallory/tiny_sum.cpp", "bob/tiny_sum.cpp"}) {
        INFO(moved);
        CHECK(rows.at(moved).status == "unreadable");
        CHECK(rows.at(moved).reason == "the file, or a header it includes, changed or disappeared during the grade");
    }
}

TEST_CASE("two files built to share an XXH3 hash are two submissions: each is judged on its own", "[grade]") {
    // A red team's pair: the bytes differ in 8 places, XXH3-128 (the judge's hash before SHA-256) is
    // equal, and the second was given the first's verdict and time without being run.
    const std::string good = kFixtures + "/host_solutions/xxh3_twin_good.cpp";
    const std::string bad = kFixtures + "/host_solutions/xxh3_twin_bad.cpp";
    REQUIRE(read_file_text(good) != read_file_text(bad));
    CHECK(file_hash(good) != file_hash(bad));
    CHECK(content_hash({}) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");  // SHA-256 of ""

    class_folder cls("grade_hash_twins");
    cls.hand_in("alice", "tiny_sum.cpp", "xxh3_twin_good");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    cls.hand_in("mallory", "tiny_sum.cpp", "xxh3_twin_bad");
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    CHECK(contains(graded.output, "1 to judge, 1 unchanged, 0 judged under another name"));
    CHECK(cls.rows().at("alice/tiny_sum.cpp").status == "accepted");
    CHECK(cls.rows().at("mallory/tiny_sum.cpp").status == "wrong_answer");
}

TEST_CASE("a file refused for its path lends that to no copy: the same bytes elsewhere are judged", "[grade]") {
    // A red team's case: a copy of an honest file in a folder named m$x was refused before compiling,
    // and the honest file handed in later took that compile error without being judged.
    class_folder cls("grade_path_refused");
    cls.hand_in("m$x", "tiny_sum.cpp", "correct");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    CHECK(cls.rows().at("m$x/tiny_sum.cpp").status == "compile_error");
    cls.hand_in("honest", "tiny_sum.cpp", "correct");
    const auto graded = cls.grade({"--no-bench"});
    INFO(graded.output);
    CHECK(contains(graded.output, "2 to judge, 0 unchanged, 0 judged under another name"));
    CHECK(cls.rows().at("honest/tiny_sum.cpp").status == "accepted");
    CHECK(cls.rows().at("m$x/tiny_sum.cpp").status == "compile_error");
    // Nor does it take the copy's judgement once there is one: judged where it lies, each time.
    const auto again = cls.grade({"--no-bench"});
    INFO(again.output);
    CHECK(contains(again.output, "1 to judge, 1 unchanged, 0 judged under another name"));
    CHECK(cls.rows().at("m$x/tiny_sum.cpp").status == "compile_error");
}

TEST_CASE("a run folder is one class's, graded by one gpujudge at a time", "[grade]") {
    class_folder first("grade_claim_first");
    class_folder second("grade_claim_second");
    first.hand_in("alice", "tiny_sum.cpp", "correct");
    second.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    REQUIRE(first.grade({"--no-bench"}).exit.code == exit_accepted);

    // Another class into the same folder would drop alice's row as "removed": refused, the gradebook kept.
    std::vector<std::string> into_first = second.argv({"--no-bench"});
    *(std::find(into_first.begin(), into_first.end(), "--out") + 1) = first.run().string();
    const auto other = run_command(into_first, std::chrono::seconds(600));
    CHECK(other.exit.code == exit_usage);
    CHECK(other.output == "gpujudge: grade: " + first.run().string() + " holds the grade of the class folder " +
                              first.dir().string() + ", not " + second.dir().string() +
                              ": grade into another folder (--out), or remove " +
                              (first.run() / "class-folder").string() + " if that class folder was moved here\n");
    REQUIRE(first.rows().size() == 1);
    CHECK(first.rows().at("alice/tiny_sum.cpp").status == "accepted");

    // While another gpujudge holds the folder (here: this test, with its pid), a grade waits for nobody.
    const int held = open((first.run() / ".lock").c_str(), O_RDWR);
    REQUIRE(held >= 0);
    REQUIRE(flock(held, LOCK_EX | LOCK_NB) == 0);
    const std::string pid = std::to_string(getpid());
    REQUIRE(ftruncate(held, 0) == 0);
    REQUIRE(write(held, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size()));
    const auto busy = first.grade({"--no-bench"});
    CHECK(busy.exit.code == exit_usage);
    CHECK(busy.output == "gpujudge: grade: another gpujudge (pid " + pid + ") is grading into " + first.run().string() +
                             ": wait for it to end, or grade into another folder (--out)\n");
    close(held);
    CHECK(first.grade({"--no-bench"}).exit.code == exit_accepted);  // released: graded again

    const auto nowhere =
        run_command({GPUJUDGE_BIN_DIR "/gpujudge", "grade", "--collect", (first.root() / "no_such_run").string()},
                    std::chrono::seconds(60));
    CHECK(nowhere.exit.code == exit_usage);
    CHECK(nowhere.output == "gpujudge: grade: " + (first.root() / "no_such_run").string() + ": no such run folder\n");
    CHECK_FALSE(std::filesystem::exists(first.root() / "no_such_run"));
}

TEST_CASE("grade --slurm: a task that failed names its state, its output file and the output's last line",
          "[grade][slurm]") {
    class_folder cls("grade_slurm_task_failed");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    // Two tasks: task 0 ran out of time after printing, task 1 never started and left nothing.
    cls.slurm_command("sbatch", R"(for arg; do case "$arg" in --output=*) out="${arg#--output=}";; esac; done
printf 'judging alice\nslurmstepd: error: *** JOB 4243 ON n1 CANCELLED DUE TO TIME LIMIT ***\n\n' > "${out%task-%a.out}task-0.out"
echo 4243
)");
    cls.slurm_command("squeue", "printf '0|TIMEOUT\\n1|CANCELLED by 0\\n'\n");
    const auto graded = cls.grade({"--slurm", "--tasks", "2", "--no-bench"}, {cls.path()});
    INFO(graded.output);
    CHECK(graded.exit.code == exit_environment);  // the grade is incomplete: the cluster's doing
    CHECK(contains(graded.output,
                   "grade: 2 submissions in Slurm tasks that failed were not judged: judge them with "
                   "gpujudge grade " +
                       std::filesystem::weakly_canonical(cls.dir()).string() + " --out " + cls.run().string() +
                       " --slurm --retry-failed\n"));
    const auto job = cls.run() / "slurm" / "job-1";
    const auto rows = cls.rows();
    CHECK(rows.at("alice/tiny_sum.cpp").reason ==
          "Slurm task 4243_0 TIMEOUT before judging it; its output ends: slurmstepd: error: *** JOB 4243 ON n1 "
          "CANCELLED DUE TO TIME LIMIT *** (" +
              (job / "task-0.out").string() + ") (--retry-failed judges it again)");
    CHECK(rows.at("bob/tiny_sum.cpp").reason == "Slurm task 4243_1 CANCELLED before judging it; it left no output (" +
                                                    (job / "task-1.out").string() +
                                                    ") (--retry-failed judges it again)");
}

TEST_CASE("grade --retry-failed judges failed rows and new files, and counts the rest unchanged", "[grade]") {
    class_folder cls("grade_retry_nothing_failed");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    cls.hand_in("carol", "tiny_sum.cpp", "correct", "// late\n");  // new since: never judged
    const auto retried = cls.grade({"--no-bench", "--retry-failed"});
    INFO(retried.output);
    CHECK(contains(retried.output, "1 to judge, 2 unchanged, 0 judged under another name"));
    CHECK(cls.rows().at("carol/tiny_sum.cpp").status == "accepted");
}

TEST_CASE("grade refuses a request that would misfire before it makes a run folder or a job", "[grade]") {
    class_folder cls("grade_refusals");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    const auto refused = [&](const std::vector<std::string>& args, const std::string& message) {
        std::vector<std::string> argv = cls.argv(args);
        const auto result = run_command(argv, std::chrono::seconds(120));
        INFO(result.output);
        CHECK(result.exit.code == exit_usage);
        CHECK(result.output == "gpujudge: grade: " + message + "\n");
        CHECK_FALSE(std::filesystem::exists(cls.run()));
    };
    // A student's file typed after the class would have been sbatch's job script.
    const std::string file = (cls.dir() / "alice" / "tiny_sum.cpp").string();
    refused({file, "--slurm"},
            "'" + file + "': one class folder at a time (options for sbatch go after --, each starting with -)");
    refused({"--partition", "gpu"},
            "--partition, --time, --account, --tasks, --no-wait and sbatch options go with --slurm");
    refused({"--no-wait"}, "--partition, --time, --account, --tasks, --no-wait and sbatch options go with --slurm");

    std::vector<std::string> typo = cls.argv({});
    *std::find(typo.begin(), typo.end(), cls.dir().string()) = cls.dir().string() + "x";
    const auto mistyped = run_command(typo, std::chrono::seconds(120));
    CHECK(mistyped.exit.code == exit_usage);
    CHECK(mistyped.output == "gpujudge: grade: " + cls.dir().string() + "x: no such folder\n");
    CHECK_FALSE(std::filesystem::exists(cls.run()));

    std::vector<std::string> inside = cls.argv({});
    *(std::find(inside.begin(), inside.end(), "--out") + 1) = (cls.dir() / "alice").string();
    const auto into_alice = run_command(inside, std::chrono::seconds(120));
    CHECK(into_alice.exit.code == exit_usage);
    CHECK(into_alice.output == "gpujudge: grade: the run folder " + (cls.dir() / "alice").string() +
                                   " lies inside the class folder " + cls.dir().string() +
                                   ": it would be taken for a student's; give --out a folder outside it\n");
    CHECK_FALSE(std::filesystem::exists(cls.dir() / "alice" / "gradebook.db"));

    std::filesystem::create_directories(cls.run());
    std::ofstream(cls.run() / "summary.md") << "the TA's own notes";
    const auto notes = cls.grade({"--no-bench"});
    CHECK(notes.exit.code == exit_usage);
    CHECK(notes.output ==
          "gpujudge: grade: " + cls.run().string() +
              " holds other files and no gradebook: give --out a new folder, or a grade's run folder\n");
    CHECK(read_file_text(cls.run() / "summary.md") == "the TA's own notes");
}

TEST_CASE("grade . in a class folder that holds a problems/ folder does not take it for the course's home", "[grade]") {
    class_folder cls("grade_home_in_class");
    cls.hand_in("mallory", "tiny_sum.cpp", "off_by_one");
    plant_lenient_tiny_sum(cls.dir() / "problems" / "tiny_sum");  // a "student" named problems
    std::vector<std::string> argv = cls.argv({"--no-bench"});
    argv.erase(std::find(argv.begin(), argv.end(), "--home"), std::find(argv.begin(), argv.end(), "--home") + 2);
    *std::find(argv.begin(), argv.end(), cls.dir().string()) = ".";
    argv.insert(argv.begin(), {"sh", "-c", "cd \"$0\" && exec \"$@\"", cls.dir().string()});
    const auto graded = run_command(argv, std::chrono::seconds(600));
    CHECK(graded.exit.code == exit_usage);
    CHECK(graded.output == "gpujudge: grade: the home " + cls.dir().string() +
                               " lies inside the class folder .: a "
                               "student's problems/ would judge the "
                               "class; name the course's with --home "
                               "or GPUJUDGE_HOME\n");
}

TEST_CASE("a run folder graded with one home's problems is not graded with another's", "[grade]") {
    class_folder cls("grade_other_home");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    REQUIRE(cls.grade({"--no-bench"}).exit.code == exit_accepted);
    std::vector<std::string> argv = cls.argv({"--no-bench"});
    *(std::find(argv.begin(), argv.end(), "--home") + 1) = GPUJUDGE_SOURCE_DIR;  // a mistyped --home
    const auto other = run_command(argv, std::chrono::seconds(600));
    CHECK(other.exit.code == exit_usage);
    const std::string fixtures = std::filesystem::weakly_canonical(kFixtures).string();
    CHECK(other.output == "gpujudge: grade: " + cls.run().string() + " was graded with the problems of " + fixtures +
                              ", not " + std::filesystem::weakly_canonical(GPUJUDGE_SOURCE_DIR).string() +
                              ": grade with --home " + fixtures + ", or into another folder (--out)\n");
    CHECK(cls.rows().at("alice/tiny_sum.cpp").status == "accepted");
}

TEST_CASE("a reference that fails while a class is judged makes its rows invalid_problem, exit 10, said once",
          "[grade]") {
    class_folder cls("grade_reference_fails", "");
    const auto home = cls.own_home();
    std::ofstream(home / "problems" / "tiny_sum" / "reference.cpp") << kExitingReference;
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    const auto graded = run_command(cls.argv({"--no-bench"}, home), std::chrono::seconds(600));
    INFO(graded.output);
    CHECK(graded.exit.code == exit_invalid_problem);
    CHECK(contains(graded.output,
                   "grade: problem tiny_sum is invalid: its 2 submissions were not judged (not counted "
                   "against the students): gpujudge validate tiny_sum, then grade again\n"));
    for (const auto& [file, row] : cls.rows()) {
        CHECK(row.status == "invalid_problem");
        CHECK(contains(row.reason, "reference"));
    }
    CHECK(contains(cls.file("summary.md"), "## Invalid problems\n\n- tiny_sum: 2 submissions not judged: "));
}

TEST_CASE("grade --slurm: a reference that fails inside a task is told once by the collect, exit 10",
          "[grade][slurm]") {
    class_folder cls("grade_slurm_reference_fails", "");
    const auto home = cls.own_home();
    std::ofstream(home / "problems" / "tiny_sum" / "reference.cpp") << kExitingReference;
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    // A cluster of one node that runs each task of the array at once, in order, as Slurm would.
    cls.slurm_command("sbatch", R"(for arg; do case "$arg" in --array=0-*) last="${arg#--array=0-}";;
  --output=*) out="${arg#--output=}";; esac; script="$arg"; done
i=0; while [ "$i" -le "$last" ]; do
  SLURM_ARRAY_TASK_ID=$i sh "$script" > "${out%task-%a.out}task-$i.out" 2>&1; i=$((i + 1)); done
echo 4245
)");
    cls.slurm_command("squeue", "echo '0|COMPLETED'\n");
    std::vector<std::string> argv = cls.argv({"--slurm", "--no-bench"}, home);
    argv.insert(argv.begin() + 1, cls.path());  // after "env"
    const auto graded = run_command(argv, std::chrono::seconds(600));
    INFO(graded.output);
    CHECK(graded.exit.code == exit_invalid_problem);
    CHECK(contains(graded.output,
                   "grade: problem tiny_sum is invalid: its submission was not judged (not counted against the "
                   "students): gpujudge validate tiny_sum, then grade again\n"));
    CHECK(cls.rows().at("alice/tiny_sum.cpp").status == "invalid_problem");
}

TEST_CASE("a machine error stops the grade with exit 13 rather than fill the gradebook with judge_error", "[grade]") {
    class_folder cls("grade_machine_error");
    cls.hand_in("alice", "tiny_sum.cpp", "correct");
    cls.hand_in("bob", "tiny_sum.cpp", "off_by_one");
    std::ofstream(cls.root() / "not_a_folder") << "a file";
    std::vector<std::string> argv = cls.argv({"--no-bench"});
    *std::find_if(argv.begin(), argv.end(), [](const std::string& a) {
        return a.rfind("GPUJUDGE_CACHE_DIR=", 0) == 0;
    }) = "GPUJUDGE_CACHE_DIR=" + (cls.root() / "not_a_folder").string();
    const auto graded = run_command(argv, std::chrono::seconds(600));
    INFO(graded.output);
    CHECK(graded.exit.code == exit_environment);
    CHECK(contains(graded.output, "(check GPUJUDGE_CACHE_DIR, GPUJUDGE_DATA_DIR and TMPDIR)\n"));
    for (const auto& [file, row] : cls.rows()) CHECK(row.status != "judge_error");
}

TEST_CASE("a student with a .cu and a .py of one problem takes one place, the faster file's", "[grade]") {
    const auto row = [](std::string file, std::string student, double median) {
        grade_row r;
        r.file = student + "/" + file;
        r.student = student;
        r.problem = "reduction";
        r.status = "accepted";
        r.gpu = "H100";
        r.median_us = median;
        r.percent_of_ceiling = 50;
        return r;
    };
    const auto boards = rank_leaderboards(
        {row("reduction.py", "alice", 300), row("reduction.cu", "bob", 200), row("reduction.cu", "alice", 100)});
    REQUIRE(boards.size() == 1);
    REQUIRE(boards[0].by_gpu.size() == 1);
    const auto& ranked = boards[0].by_gpu[0].rows;
    REQUIRE(ranked.size() == 2);
    CHECK(ranked[0].file == "alice/reduction.cu");
    CHECK(ranked[1].student == "bob");
}

TEST_CASE("a file named for no problem, or with its extension's case off, says which name was meant", "[grade]") {
    const temp_dir folder("grade-names");
    for (const std::string name : {"Tiny_Sum.cpp", "tiny_sm.cpp", "tiny_sum.CPP", "notes.cpp"}) {
        std::filesystem::create_directories(folder.path() / "erin");
        std::ofstream(folder.path() / "erin" / name) << "// a submission\n";
    }
    std::map<std::string, std::string> reasons;
    for (const auto& entry : scan_class(folder.path(), {"tiny_sum", "mean_square"}, true, {}))
        reasons[entry.file] = entry.reason;
    CHECK(reasons.at("erin/Tiny_Sum.cpp") ==
          "no problem named 'Tiny_Sum' (did you mean 'tiny_sum'? rename it tiny_sum.cpp; see gpujudge list)");
    CHECK(reasons.at("erin/tiny_sm.cpp") ==
          "no problem named 'tiny_sm' (did you mean 'tiny_sum'? rename it tiny_sum.cpp; see gpujudge list)");
    CHECK(reasons.at("erin/tiny_sum.CPP") == "'tiny_sum.CPP' is not a source file (.cpp, .py): rename it tiny_sum.cpp");
    CHECK(reasons.at("erin/notes.cpp") == "no problem named 'notes' (see gpujudge list)");
}
