// The path: "// step: N" in solutions' headers, its errors, the measurements file read back, and the
// path's report (tests/fixtures/path_home: tiny_sum's steps and a measurements file of bench's shape).
#include "base/problem_error.hpp"
#include "bench/report.hpp"
#include "catalog/catalog.hpp"
#include "catalog/solution_path.hpp"
#include "path/learning_path.hpp"
#include "path/measurements.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;
const std::string kPathHome = kFixtures + "/path_home";

// A solution file in a temporary folder, with `text` as its content.
struct scratch_file {
    explicit scratch_file(const std::string& name, const std::string& text)
        : path(std::filesystem::temp_directory_path() / ("gpujudge-path-test-" + name)) {
        std::ofstream(path) << text;
    }
    ~scratch_file() { std::filesystem::remove(path); }
    std::filesystem::path path;
};

solution_file header_of(const std::string& name, const std::string& text) {
    const scratch_file file(name, text);
    return read_solution_header(file.path);
}

// The JSON's keys, with those of nested objects as "outer.inner" (an array's first element for arrays).
std::set<std::string> key_paths(const nlohmann::json& json, const std::string& prefix = "") {
    std::set<std::string> keys;
    if (json.is_array() && !json.empty()) return key_paths(json.front(), prefix + "[]");
    if (!json.is_object()) return keys;
    for (const auto& [key, value] : json.items()) {
        keys.insert(prefix + "." + key);
        for (const auto& inner : key_paths(value, prefix + "." + key)) keys.insert(inner);
    }
    return keys;
}

}  // namespace

TEST_CASE("a header declares its step and what it teaches", "[path][catalog]") {
    const auto file = header_of("step.cu",
                                "// expect: accepted\n"
                                "// step: 2\n"
                                "// Technique: a shared-memory tree. Each block halves its active\n"
                                "// threads each round.\n"
                                "//\n"
                                "// Measured: not part of the technique.\n"
                                "#include <cuda_runtime.h>\n");
    CHECK(file.header_error.empty());
    CHECK(file.step == 2);
    CHECK(file.step_line == 2);
    CHECK(file.technique == "a shared-memory tree. Each block halves its active threads each round.");
    CHECK(first_sentence(file.technique) == "a shared-memory tree");
    const auto none = header_of("no_step.cu", "// expect: accepted\n// Technique: anything.\n");
    CHECK_FALSE(none.step);
    CHECK(none.header_error.empty());
}

TEST_CASE("a bad step header is an error at its line", "[path][catalog]") {
    const auto word = header_of("word.cu", "// expect: accepted\n// Technique: x.\n// step: two\n");
    CHECK_FALSE(word.step);
    CHECK(describe_header_error(word) ==
          word.path.string() + ":3: 'step:' takes a whole number from 1 (its place on the path), not 'two'");
    const auto zero = header_of("zero.cu", "// expect: accepted\n// Technique: x.\n// step: 0\n");
    CHECK(zero.header_error == "'step:' takes a whole number from 1 (its place on the path), not '0'");
    const auto wrong = header_of("wrong.cu", "// expect: wrong_answer\n// step: 1\n// Technique: x.\n");
    CHECK(describe_header_error(wrong) ==
          wrong.path.string() +
              ":2: 'step:' goes with 'expect: accepted' only: a step on the path is a correct solution");
    const auto baseline =
        header_of("base.cu", "// expect: accepted\n// role: baseline\n// step: 1\n// Technique: x.\n");
    CHECK(describe_header_error(baseline) ==
          baseline.path.string() + ":3: 'step:' is not for the baseline ('role: baseline')");
    const auto mute = header_of("mute.cu", "// expect: accepted\n// step: 1\n");
    CHECK(describe_header_error(mute) ==
          mute.path.string() + ":2: a step says what it teaches: add a '// Technique: ...' line");
    const auto python = header_of("step.py", "# expect: accepted\n# step: 1\n");
    CHECK(python.header_error == "a step says what it teaches: add a '# Technique: ...' line");
    // An error that is about no single line keeps the old form.
    const auto undeclared = header_of("none.cu", "// Technique: x.\n");
    CHECK(describe_header_error(undeclared) ==
          undeclared.path.string() + ": no '// expect: <verdict>' line in its header");
}

TEST_CASE("a problem's steps: in order, each number once, without gaps", "[path][catalog]") {
    const auto at = [](const std::string& name, int step, int line) {
        solution_file file;
        file.path = "/s/" + name;
        file.step = step;
        file.step_line = line;
        return file;
    };
    const std::vector<solution_file> good{at("c.cu", 3, 2), at("a.cu", 1, 2), at("b.cu", 2, 4)};
    const auto steps = path_steps(good);
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].path == "/s/a.cu");
    CHECK(steps[2].path == "/s/c.cu");
    CHECK(path_errors(good).empty());
    const std::vector<solution_file> bad{at("a.cu", 1, 2), at("b.cu", 1, 3), at("d.cu", 4, 2)};
    CHECK(path_errors(bad) ==
          std::vector<std::string>{
              "/s/b.cu:3: step 1 is declared twice: /s/a.cu:2 declares it too",
              "/s/d.cu:2: step 4 follows no step 3: the steps are numbered 1, 2, 3, ... without gaps"});
}

TEST_CASE("first_sentence stops at a full stop before a blank, not inside a number", "[path]") {
    CHECK(first_sentence("privatisation. Each block counts.") == "privatisation");
    CHECK(first_sentence("adds 1.5e-4 per term. Then") == "adds 1.5e-4 per term");
    CHECK(first_sentence("one pass.") == "one pass");
    CHECK(first_sentence("no full stop") == "no full stop");
}

TEST_CASE("the measurements file is bench --all --json's output, read back per problem and file", "[path]") {
    const measurements measured = load_measurements(default_measurements_path(kPathHome));
    CHECK(measured.present);
    const auto figures = measured.find("tiny_sum", "block_tree.cu", "N = 100000");
    REQUIRE(figures);
    CHECK(figures->median_us == Approx(6.2));
    CHECK(figures->percent_of_peak == Approx(2.1));
    CHECK(figures->speedup == Approx(1.27));
    CHECK_FALSE(measured.find("tiny_sum", "warp_shuffle.cu", "N = 100000"));
    CHECK_FALSE(measured.find("tiny_sum", "block_tree.cu", "N = 5"));
    CHECK_FALSE(measured.find("reduction", "block_tree.cu", "N = 100000"));
    CHECK(measured.problems.at("tiny_sum").device == "NVIDIA H100 80GB HBM3");

    const measurements missing = load_measurements(kFixtures + "/no_such_file.json");
    CHECK_FALSE(missing.present);
    const scratch_file broken("broken.json", "[{\"problem\": \"tiny_sum\"}]");
    CHECK_THROWS_AS(load_measurements(broken.path), problem_error);
}

TEST_CASE("the fixture's measurements have the shape bench's JSON has", "[path]") {
    bench_report report;
    report.problem = "tiny_sum";
    report.peak_gbps = 3000;
    report.device = device_message{"NVIDIA H100 80GB HBM3", "GPU-0", "sm_90", 132, 1, 1};
    bench_entry entry;
    entry.source = "/x/library.cu";
    entry.compile.ok = true;
    entry.figures.push_back({});
    report.entries.push_back(entry);
    std::ifstream file(default_measurements_path(kPathHome));
    const nlohmann::json fixture = nlohmann::json::parse(file);
    CHECK(key_paths(fixture.at(0)) == key_paths(bench_json(report)));
}

TEST_CASE("path: the steps in order with their technique and the measured figures", "[path]") {
    problem_spec spec;
    spec.slug = "tiny_sum";
    spec.title = "Tiny Sum";
    test_spec benchmark;
    benchmark.name = "N = 100000";
    benchmark.kind = test_kind::benchmark;
    spec.tests.push_back(benchmark);
    const learning_path path = build_path(kPathHome, spec, load_measurements(default_measurements_path(kPathHome)));
    CHECK(path.errors.empty());
    REQUIRE(path.steps.size() == 3);
    CHECK(path_text(path) ==
          "Tiny Sum (tiny_sum): 3 steps, naive to fastest\n"
          "figures: NVIDIA H100 80GB HBM3 at N = 100000, ceiling 3072 GB/s, from solutions/measured-h100.json\n"
          "\n"
          "step  file                             median µs    GB/s % of ceiling × baseline\n"
          "   1  naive_atomics.cu                      61.3       6        0.2 %      0.13\n"
          "      one thread per element, each adding its value into the zeroed output with atomicAdd\n"
          "   2  block_tree.cu                          6.2      64        2.1 %      1.27\n"
          "      a shared-memory tree per block\n"
          "   3  warp_shuffle.cu                  not measured\n"
          "      warp shuffles instead of shared memory (__shfl_down_sync), then one atomicAdd per warp\n");
    const auto json = path_json(path);
    CHECK(json.at("steps").at(1).at("file") == "block_tree.cu");
    CHECK(json.at("steps").at(1).at("measured").at("median_us") == Approx(6.2));
    CHECK(json.at("steps").at(2).at("measured").is_null());
    CHECK(json.at("measurements").at("file") == "solutions/measured-h100.json");
    CHECK(json.at("test") == "N = 100000");

    const learning_path unmeasured = build_path(kPathHome, spec, load_measurements(kFixtures + "/none.json"));
    CHECK(path_text(unmeasured)
              .find("figures: none yet (" + kFixtures +
                    "/none.json is not there: gpujudge bench --all --json on the H100 writes it)\n") !=
          std::string::npos);
    for (const auto& step : unmeasured.steps) CHECK_FALSE(step.measured);
}

TEST_CASE("path: the figures are taken at the largest benchmark measured, and a slower step says so", "[path]") {
    problem_spec spec;
    spec.slug = "tiny_sum";
    spec.title = "Tiny Sum";
    for (const std::string name : {"N = 100000", "N = 100000, renamed since", "N = 1000"}) {
        test_spec benchmark;
        benchmark.name = name;
        benchmark.kind = test_kind::benchmark;
        spec.tests.push_back(benchmark);
    }
    measurements measured = load_measurements(default_measurements_path(kPathHome));
    auto& files = measured.problems.at("tiny_sum").files;
    // The last benchmark was measured too, but moves a hundredth of the bytes: the figures stay at N = 100000.
    bench_figures small = files.at("block_tree.cu").at(0);
    small.test = "N = 1000";
    small.gbps = 0.5;
    files.at("block_tree.cu").push_back(small);
    const learning_path path = build_path(kPathHome, spec, measured);
    CHECK(path.test == std::optional<std::string>("N = 100000"));
    REQUIRE(path.steps.size() == 3);
    CHECK(path.steps.at(1).measured);

    // warp_shuffle.cu (step 3) measured slower than block_tree.cu (step 2).
    bench_figures slower = files.at("block_tree.cu").at(0);
    slower.median_us = 9.5;
    slower.gbps = 41.8;  // the same bytes in more time
    files["warp_shuffle.cu"] = {slower};
    const learning_path marked = build_path(kPathHome, spec, measured);
    CHECK_FALSE(marked.steps.at(1).slower_than_step);  // 6.2 µs after 61.3
    CHECK(marked.steps.at(2).slower_than_step == std::optional<int>(2));
    CHECK(path_text(marked).find("   3  warp_shuffle.cu                        9.5      42        2.1 %      "
                                 "1.27  slower than step 2\n") != std::string::npos);
    CHECK(path_json(marked).at("steps").at(2).at("slower_than_step") == 2);
    CHECK(path_json(marked).at("steps").at(1).at("slower_than_step").is_null());

    // Of two sizes moving as many bytes, the one whose fastest step is furthest from the ceiling.
    bench_figures twin = files.at("block_tree.cu").at(0);
    twin.test = "N = 100000, renamed since";
    twin.percent_of_peak = 1.0;
    files.at("block_tree.cu").push_back(twin);
    CHECK(build_path(kPathHome, spec, measured).test == std::optional<std::string>("N = 100000, renamed since"));

    // Nothing measured at any current benchmark: the last benchmark, each step "not measured".
    const learning_path unmeasured = build_path(kPathHome, spec, load_measurements(kFixtures + "/none.json"));
    CHECK(unmeasured.test == std::optional<std::string>("N = 1000"));
}
