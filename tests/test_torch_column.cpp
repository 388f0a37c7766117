// The × torch column: the problem's PyTorch one-liner (solutions/<slug>/pytorch.py) timed beside the
// baseline, on the host backend (CPU torch). Part of gpujudge_python_tests, which exits 77 (skipped)
// without a Python that has torch.
#include "base/exit_codes.hpp"
#include "base/temp_dir.hpp"
#include "cli_test_support.hpp"
#include "toolkit/python_probe.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

constexpr const char* kOneLiner =
    "# expect: accepted\n"
    "import torch\n\n\n"
    "def solve(input: torch.Tensor, output: torch.Tensor, N: int):\n"
    "    output.copy_(input[:N].to(torch.float64).sum().to(torch.float32).unsqueeze(0))\n";

// A home with tiny_sum and, unless `one_liner` is empty, solutions/tiny_sum/pytorch.py holding it; its
// own history (data) and caches.
struct torch_home {
    temp_dir dir{"torch-home"};
    explicit torch_home(const std::string& one_liner = kOneLiner) {
        std::filesystem::create_directories(dir.path() / "problems");
        std::filesystem::copy(kFixtures + "/problems/tiny_sum", dir.path() / "problems" / "tiny_sum");
        std::filesystem::create_directories(dir.path() / "solutions" / "tiny_sum");
        if (!one_liner.empty()) write_one_liner(one_liner);
    }
    void write_one_liner(const std::string& text) const {
        std::ofstream(dir.path() / "solutions" / "tiny_sum" / "pytorch.py") << text;
    }
    std::filesystem::path one_liner() const { return dir.path() / "solutions" / "tiny_sum" / "pytorch.py"; }
    command_result gpujudge(const std::vector<std::string>& args, std::vector<std::string> env = {}) const {
        env.push_back("GPUJUDGE_DATA_DIR=" + (dir.path() / "data").string());
        std::vector<std::string> all{"--color",           "never",     "--timings", "--home",
                                     dir.path().string(), "--backend", "host"};
        all.insert(all.end(), args.begin(), args.end());
        return gpujudge_env(env, all);
    }
    command_result submit(std::vector<std::string> more = {}, std::vector<std::string> env = {}) const {
        std::vector<std::string> args{"submit", "tiny_sum", kFixtures + "/host_solutions/correct.cpp"};
        args.insert(args.end(), more.begin(), more.end());
        return gpujudge(args, std::move(env));
    }
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The JSON object the command printed (after whatever it logged on stderr).
nlohmann::json json_of(const command_result& result) {
    return nlohmann::json::parse(result.output.substr(result.output.find("\n{") + 1));
}

// The row of the markdown table that starts with `name` (its cells, the name first).
std::vector<std::string> row_of(const std::string& text, const std::string& name) {
    const auto start = text.find("| " + name + " |");
    if (start == std::string::npos) return {};
    std::vector<std::string> cells;
    const std::string line = text.substr(start + 1, text.find('\n', start) - start - 2);
    std::size_t from = 0;
    while (from <= line.size()) {
        const auto bar = std::min(line.find('|', from), line.size());
        std::string cell = line.substr(from, bar - from);
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
        from = bar + 1;
    }
    return cells;
}

const std::string kHeader =
    "| solution | size | median µs | GB/s | GFLOP/s | % of peak | × baseline | × torch | samples | ±rse |";

}  // namespace

TEST_CASE("submit times the PyTorch one-liner and shows x torch beside x baseline", "[python][torch]") {
    const torch_home home;
    const auto result = home.submit();
    REQUIRE(result.exit.code == exit_accepted);
    CHECK(contains(result.output, kHeader));
    const auto torch = row_of(result.output, "pytorch.py (torch)");
    REQUIRE(torch.size() == 10);
    CHECK(torch[7] == "1.00");
    const auto mine = row_of(result.output, "correct.cpp");
    REQUIRE(mine.size() == 10);
    CHECK(std::stod(mine[7]) > 0);
    CHECK(contains(result.output, "torch one-liner "));  // --timings names its phase

    const auto json = json_of(home.submit({"--json"}));
    const auto& entries = json.at("bench").at("entries");
    REQUIRE(entries.size() == 2);
    CHECK(entries.at(0).at("torch") == true);
    CHECK(entries.at(0).at("cached") == true);  // kept by the first submit
    const auto& figures = entries.at(1).at("figures").at(0);
    CHECK(entries.at(1).at("torch") == false);
    CHECK(figures.at("speedup_torch").get<double>() ==
          Approx(entries.at(0).at("figures").at(0).at("median_us").get<double>() /
                 figures.at("median_us").get<double>()));
}

TEST_CASE("without pytorch.py, or with --no-torch, there is no x torch column", "[python][torch]") {
    const torch_home without("");
    const auto result = without.submit();
    REQUIRE(result.exit.code == exit_accepted);
    CHECK(
        contains(result.output, "| solution | size | median µs | GB/s | GFLOP/s | % of peak | × baseline | samples |"));
    CHECK_FALSE(contains(result.output, "× torch"));
    CHECK_FALSE(contains(result.output, "torch one-liner"));
    const torch_home with;
    const auto skipped = with.submit({"--no-torch"});
    REQUIRE(skipped.exit.code == exit_accepted);
    CHECK_FALSE(contains(skipped.output, "× torch"));
    CHECK_FALSE(contains(skipped.output, "torch one-liner"));
}

TEST_CASE("a one-liner that fails leaves the verdict alone and warns why", "[python][torch]") {
    struct broken {
        const char* what;
        std::string text;
        const char* why;
    };
    const std::string solve = "def solve(input: torch.Tensor, output: torch.Tensor, N: int):\n";
    for (const auto& one_liner : {
             broken{"a syntax error", "import torch\n\n\n" + solve + "    output.copy_(input[:N].sum(\n",
                    "SyntaxError"},
             broken{"a wrong answer", "import torch\n\n\n" + solve + "    output.fill_(1.0)\n",
                    "timed run on 'N = 100000': wrong_answer"},
             broken{"an exception", "import torch\n\n\n" + solve + "    raise RuntimeError('broken one-liner')\n",
                    "broken one-liner"},
         }) {
        INFO(one_liner.what);
        const torch_home home(one_liner.text);
        const auto result = home.submit();
        CHECK(result.exit.code == exit_accepted);
        CHECK(contains(result.output, "verdict: accepted (4/4 tests passed)"));
        CHECK(contains(result.output,
                       home.one_liner().string() + ": the PyTorch one-liner failed, so there is no × torch column: "));
        CHECK(contains(result.output, one_liner.why));
        CHECK_FALSE(contains(result.output, "| × torch |"));
    }
}

TEST_CASE("the one-liner's figures are kept, and timed again when the one-liner or torch changes", "[python][torch]") {
    const torch_home home;
    const auto first = home.submit();
    REQUIRE(first.exit.code == exit_accepted);
    CHECK(contains(first.output, "| pytorch.py (torch) |"));
    const auto median = row_of(first.output, "pytorch.py (torch)").at(2);

    const auto second = home.submit();
    CHECK(contains(second.output, "| pytorch.py (torch, kept) |"));
    CHECK(row_of(second.output, "pytorch.py (torch, kept)").at(2) == median);
    CHECK(contains(second.output, "\n(torch, kept): the PyTorch one-liner's figures from an earlier run"));
    CHECK_FALSE(contains(second.output, "torch one-liner "));  // not timed: no phase in --timings

    home.write_one_liner(std::string(kOneLiner) + "# another one-liner\n");
    const auto changed = home.submit();
    CHECK(contains(changed.output, "| pytorch.py (torch) |"));
    CHECK(contains(changed.output, "torch one-liner "));

    // The same Python and one-liner, the probe told of another torch version.
    const std::filesystem::path wrapper = home.dir.path() / "python-with-other-torch";
    std::ofstream(wrapper) << "#!/bin/sh\n"
                           << find_python().executable
                           << " \"$@\" | sed 's/\"torch\": \"[^\"]*\"/\"torch\": \"0.0.1-other\"/'\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    const auto other_torch = home.submit({}, {"GPUJUDGE_PYTHON=" + wrapper.string()});
    CHECK(other_torch.exit.code == exit_accepted);
    CHECK(contains(other_torch.output, "| pytorch.py (torch) |"));
    CHECK(contains(other_torch.output, "torch one-liner "));
    CHECK(contains(home.submit({}, {"GPUJUDGE_PYTHON=" + wrapper.string()}).output, "| pytorch.py (torch, kept) |"));
}

TEST_CASE("bench shows x torch, and times a listed pytorch.py once, as the reference", "[python][torch]") {
    const torch_home home;
    const std::string correct = kFixtures + "/python_solutions/correct.py";
    const auto bench = home.gpujudge({"bench", "tiny_sum", correct, "--min-time", "0.1", "--budget", "0.3"});
    REQUIRE(bench.exit.code == exit_accepted);
    CHECK(contains(bench.output, kHeader));
    CHECK(row_of(bench.output, "pytorch.py (torch)").at(7) == "1.00");
    CHECK(std::stod(row_of(bench.output, "correct.py").at(7)) > 0);

    const auto listed = home.gpujudge(
        {"bench", "tiny_sum", correct, home.one_liner().string(), "--json", "--min-time", "0.1", "--budget", "0.3"});
    REQUIRE(listed.exit.code == exit_accepted);
    const auto json = json_of(listed);
    const auto& entries = json.at("entries");
    REQUIRE(entries.size() == 2);  // correct.py, then pytorch.py, timed once
    CHECK(entries.at(0).at("source") == correct);
    CHECK(entries.at(1).at("torch") == true);
    CHECK(entries.at(1).at("cached") == false);
    CHECK(entries.at(0).at("figures").at(0).at("speedup_torch").get<double>() > 0);
    CHECK(entries.at(1).at("figures").at(0).at("speedup_torch").get<double>() == Approx(1));

    const auto without =
        home.gpujudge({"bench", "tiny_sum", correct, "--no-torch", "--min-time", "0.1", "--budget", "0.3"});
    REQUIRE(without.exit.code == exit_accepted);
    CHECK_FALSE(contains(without.output, "× torch"));
}
