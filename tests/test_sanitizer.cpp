// compute-sanitizer's reports read from real output of the tool (tests/fixtures/sanitizer/, from an
// H100), mapped to the user's file and decided into sanitize's own verdict.
#include "base/exit_codes.hpp"
#include "sanitize/findings.hpp"
#include "sanitize/log.hpp"
#include "sanitize/report.hpp"
#include "toolkit/compute_sanitizer.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace gpujudge;

namespace {

const std::string kDir = GPUJUDGE_TEST_FIXTURES "/sanitizer";
const std::string kProg = kDir + "/prog.cu";  // the program the reports came from

std::string fixture(const std::string& name) {
    std::ifstream file(kDir + "/" + name);
    std::stringstream text;
    text << file.rdbuf();
    REQUIRE(!text.str().empty());
    return text.str();
}

sanitizer_log log_of(const std::string& name) {
    return parse_sanitizer_log(fixture(name));
}

std::string place(const sanitizer_finding& finding) {
    const code_site& site = finding.at.front().site;
    return site.file + ":" + std::to_string(site.line);
}

judgement judged_tests(std::vector<verdict> verdicts) {
    judgement judged;
    judged.compile.ok = true;
    for (std::size_t i = 0; i < verdicts.size(); ++i)
        judged.tests.push_back({static_cast<int>(i), "test " + std::to_string(i + 1), test_kind::functional,
                                verdicts[i], verdicts[i] == verdict::accepted ? "" : "it failed", 1.0, std::nullopt,
                                std::nullopt});
    decide(judged);
    return judged;
}

sanitize_result result_of(const std::string& tool, const std::string& log, judgement judged) {
    sanitize_result result;
    result.tool = tool;
    result.judged = std::move(judged);
    result.log = log_of(log);
    result.findings = map_findings(result.log, kProg, "");
    return result;
}

std::string printed(const sanitize_result& result) {
    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* out = open_memstream(&buffer, &size);
    print_sanitize(out, spec, kProg, result, style{});
    std::fclose(out);
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

}  // namespace

TEST_CASE("memcheck's records: kind, place, thread and the allocation missed, backtraces or not", "[sanitizer]") {
    for (const char* name : {"memcheck.txt", "memcheck_bt.txt"}) {
        INFO(name);
        const sanitizer_log log = log_of(name);
        REQUIRE(log.records.size() == 26);  // 24 reads past the input, then 2 API errors
        const sanitizer_record& first = log.records.front();
        CHECK(first.kind == "Invalid __global__ read of size 4 bytes");
        CHECK_FALSE(first.warning);
        REQUIRE(first.at.size() == 1);
        CHECK(first.at[0].site.function == "reduce_oob(const float *, float *, int)+0x80");
        CHECK(first.at[0].site.file == "prog.cu");
        CHECK(first.at[0].site.line == 23);
        CHECK(first.thread == "thread (232,0,0) in block (3,0,0)");
        CHECK(first.details.size() == 2);
        CHECK(first.details[1].find("and is ") == 0);
        CHECK(log.records[25].kind.rfind("Program hit cudaErrorLaunchFailure (error 719)", 0) == 0);
        CHECK(log.records[25].at.empty());
        CHECK(log.summary == std::optional<std::string>("ERROR SUMMARY: 26 errors"));
    }
}

TEST_CASE("racecheck's analysis: one record per pair of accesses, with its hazards and severity", "[sanitizer]") {
    const sanitizer_log log = log_of("racecheck.txt");
    REQUIRE(log.records.size() == 12);
    const sanitizer_record& first = log.records.front();
    CHECK(first.kind == "Race");
    CHECK_FALSE(first.warning);
    REQUIRE(first.at.size() == 2);
    CHECK(first.at[0].access == "Write");
    CHECK(first.at[0].site.line == 18);
    CHECK(first.at[1].access == "Read");
    CHECK(first.at[1].site.function == "reduce_race(const float *, float *, int)+0x160");
    CHECK(first.hazards == 1024);
    CHECK(log.records[1].hazards == 128);
    CHECK(log.records[4].warning);
    long long hazards = 0;
    for (const auto& record : log.records) hazards += record.hazards;
    CHECK(hazards == 2640);  // the summary's 1664 errors and 976 warnings
    CHECK(log.summary == std::optional<std::string>("RACECHECK SUMMARY: 7 hazards displayed (2 errors, 5 warnings)"));
}

TEST_CASE("racecheck's hazard report: the two threads' accesses in each record", "[sanitizer]") {
    const sanitizer_log log = log_of("racecheck_hazard.txt");
    REQUIRE(log.records.size() == 100);
    const sanitizer_record& first = log.records.front();
    CHECK(first.kind == "Potential WAR hazard");
    REQUIRE(first.at.size() == 2);
    CHECK(first.at[0].access == "Read");
    CHECK(first.at[1].access == "Write");
    CHECK(first.at[1].site.line == 18);
    CHECK(first.details.front() == "at __shared__ 0x500 in block (2,0,0)");
}

TEST_CASE("synccheck's barrier errors, and clean reports with their summary only", "[sanitizer]") {
    const sanitizer_log sync = log_of("synccheck.txt");
    REQUIRE(sync.records.size() == 16);
    CHECK(sync.records[0].kind == "Barrier error detected. Divergent thread(s) in warp.");
    CHECK(sync.records[0].at[0].site.line == 35);
    CHECK(sync.records[15].thread == "thread (15,0,0) in block (0,0,0)");
    for (const char* name : {"initcheck.txt", "memcheck_clean.txt"}) {
        const sanitizer_log clean = log_of(name);
        CHECK(clean.records.empty());
        CHECK(clean.summary == std::optional<std::string>("ERROR SUMMARY: 0 errors"));
    }
    const sanitizer_log killed = parse_sanitizer_log("========= COMPUTE-SANITIZER\n");
    CHECK(killed.records.empty());
    CHECK_FALSE(killed.summary);
}

TEST_CASE("a log line of 200 000 characters (a kernel's name, its printf) is read cut, not overflowing a regex",
          "[sanitizer]") {
    const sanitizer_log log =
        parse_sanitizer_log("========= Invalid __global__ read of size 4 bytes\n=========     at " +
                            std::string(200000, 'k') + "+0x80 in a.cu:3\n=========\n");
    REQUIRE(log.records.size() == 1);
    CHECK(log.records[0].details.empty());
}

TEST_CASE("findings: each place once, in the user's file, with the line quoted", "[sanitizer]") {
    const sanitizer_findings memcheck = map_findings(log_of("memcheck.txt"), kProg, "");
    REQUIRE(memcheck.submission.size() == 1);
    const sanitizer_finding& read = memcheck.submission.front();
    CHECK(place(read) == kProg + ":23");
    CHECK(read.quoted == "atomicAdd(out, in[i]);  // no bound check");
    CHECK(read.reports == 24);
    CHECK(memcheck.judge.empty());
    CHECK(memcheck.other.size() == 2);  // the API errors name no device code: not the user's findings

    const sanitizer_findings race = map_findings(log_of("racecheck.txt"), kProg, "");
    REQUIRE(race.submission.size() == 2);  // write then read, and once read then write
    CHECK(race.submission[0].at[0].access == "Write");
    CHECK(race.submission[0].hazards == 2640 - 32);
    CHECK_FALSE(race.submission[0].warning);  // some of its records were errors
    CHECK(race.submission[1].at[0].access == "Read");
    CHECK(race.submission[1].warning);
    CHECK(race.submission[1].quoted.rfind("for (int k = 128; k > 0; k >>= 1)", 0) == 0);
}

TEST_CASE("findings: a library compiled from another path is still the user's file", "[sanitizer]") {
    // The compile cache keys on content: the line info names the first path this content was compiled from.
    const std::string copy = GPUJUDGE_TEST_CACHE "/renamed_solution.cu";
    std::ofstream(copy) << fixture("prog.cu");
    const sanitizer_findings findings = map_findings(log_of("synccheck.txt"), copy, "/elsewhere/prog.cu");
    REQUIRE(findings.submission.size() == 1);
    CHECK(place(findings.submission[0]) == copy + ":35");
    CHECK(findings.submission[0].quoted == "if (threadIdx.x < 16) __syncthreads();");
    CHECK(findings.submission[0].reports == 16);
}

TEST_CASE("findings: the judge's own kernels are never the user's, other files are", "[sanitizer]") {
    const sanitizer_log log = parse_sanitizer_log(
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at gpujudge::(anonymous namespace)::count_mismatches_kernel(const unsigned int *)+0x90\n"
        "=========     by thread (0,0,0) in block (0,0,0)\n"
        "========= \n"
        "========= Invalid __global__ write of size 8 bytes\n"
        "=========     at void cub::DeviceReduceKernel<float>(float *)+0x1f0 in agent_reduce.cuh:412\n"
        "=========     by thread (3,0,0) in block (1,0,0)\n"
        "========= \n"
        "========= ERROR SUMMARY: 2 errors\n");
    const sanitizer_findings findings = map_findings(log, kProg, "");
    REQUIRE(findings.judge.size() == 1);
    CHECK(findings.judge[0].at[0].site.file.empty());
    REQUIRE(findings.submission.size() == 1);
    CHECK(place(findings.submission[0]) == "agent_reduce.cuh:412");  // a library it called: no line of theirs to quote
    CHECK(findings.submission[0].quoted.empty());
}

TEST_CASE("sanitize's verdict: findings, the judge's, incomplete runs, clean", "[sanitizer]") {
    const auto all_accepted = judged_tests({verdict::accepted, verdict::accepted});
    const auto findings = decide_sanitize(
        result_of("memcheck", "memcheck.txt", judged_tests({verdict::runtime_error, verdict::skipped})));
    CHECK(findings.verdict == sanitize_verdict::findings);
    CHECK(findings.exit_code == exit_sanitizer_findings);
    CHECK(findings.line == "sanitize: 1 finding (memcheck)");

    const auto race = decide_sanitize(result_of("racecheck", "racecheck.txt", all_accepted));
    CHECK(race.line == "sanitize: 2 findings (racecheck)");

    const auto clean = decide_sanitize(result_of("memcheck", "memcheck_clean.txt", all_accepted));
    CHECK(clean.verdict == sanitize_verdict::clean);
    CHECK(clean.exit_code == exit_accepted);
    CHECK(clean.line == "sanitize: clean (memcheck, 2 tests)");

    // A wrong answer is submit's business: the tool still saw every test.
    const auto wrong = decide_sanitize(
        result_of("initcheck", "initcheck.txt", judged_tests({verdict::accepted, verdict::wrong_answer})));
    CHECK(wrong.line == "sanitize: clean (initcheck, 2 tests)");

    const auto hang =
        decide_sanitize(result_of("racecheck", "memcheck_clean.txt",
                                  judged_tests({verdict::accepted, verdict::time_limit_exceeded, verdict::skipped})));
    CHECK(hang.verdict == sanitize_verdict::incomplete);
    CHECK(hang.exit_code == exit_time_limit_exceeded);
    CHECK(hang.line == "sanitize: incomplete (racecheck, 2 of 3 tests ran; test 'test 2': time_limit_exceeded)");

    sanitize_result unfinished = result_of("memcheck", "memcheck_clean.txt", all_accepted);
    unfinished.log.summary.reset();
    const auto killed = decide_sanitize(unfinished);
    CHECK(killed.exit_code == exit_environment);
    CHECK(killed.line == "sanitize: incomplete (memcheck, compute-sanitizer ended before its summary)");
}

TEST_CASE("sanitize's verdict: not run without a compiled library or a device", "[sanitizer]") {
    judgement failed = judged_tests({verdict::skipped});
    failed.compile.ok = false;
    decide(failed);
    const auto compile = decide_sanitize(result_of("memcheck", "memcheck_clean.txt", failed));
    CHECK(compile.exit_code == exit_compile_error);
    CHECK(compile.line == "sanitize: not run (compile_error)");
    judgement none = judged_tests({verdict::skipped});
    none.no_device = "no CUDA device found";
    decide(none);
    const auto device = decide_sanitize(result_of("memcheck", "memcheck_clean.txt", none));
    CHECK(device.exit_code == exit_no_device);
    CHECK(device.line == "sanitize: not run (no_device: no CUDA device found)");
}

TEST_CASE("the report: each finding at file:line, its line quoted, an example, then the verdict", "[sanitizer]") {
    const std::string text =
        printed(result_of("memcheck", "memcheck.txt", judged_tests({verdict::runtime_error, verdict::skipped})));
    INFO(text);
    CHECK(text.find("tool     compute-sanitizer --tool memcheck, on the 2 examples and functional tests\n") !=
          std::string::npos);
    CHECK(text.find("\n" + kProg +
                    ":23: Invalid __global__ read of size 4 bytes (24 reports)\n"
                    "     23 | atomicAdd(out, in[i]);  // no bound check\n"
                    "  e.g. thread (232,0,0) in block (3,0,0): Access to 0x7fc102800fa0 is out of bounds and is 1 "
                    "bytes after an allocation of 4,000 bytes\n") != std::string::npos);
    CHECK(text.find("under the tool, 1 of 2 tests did not pass (a kernel the tool stops leaves its output "
                    "unfinished; submit judges answers): 'test 1' runtime_error\n") != std::string::npos);
    CHECK(text.find("compute-sanitizer: Program hit cudaErrorLaunchFailure") != std::string::npos);
    CHECK(text.size() > 40);
    CHECK(text.substr(text.size() - 31) == "sanitize: 1 finding (memcheck)\n");

    const std::string race = printed(result_of("racecheck", "racecheck.txt", judged_tests({verdict::accepted})));
    INFO(race);
    CHECK(race.find("\n" + kProg + ":18: race between a write at line 18 and a read at line 18 (2608 hazards)\n") !=
          std::string::npos);
    CHECK(race.find(":18: race between a read at line 18 and a write at line 18 (32 hazards, warnings)\n") !=
          std::string::npos);
}

TEST_CASE("more places than the report shows are counted, and all are in the JSON", "[sanitizer]") {
    std::string text = "========= COMPUTE-SANITIZER\n";
    for (int line = 1; line <= 7; ++line)
        text += "========= Invalid __global__ read of size 4 bytes\n=========     at k()+0x10 in prog.cu:" +
                std::to_string(line) + "\n========= \n";
    text += "========= ERROR SUMMARY: 7 errors\n";
    sanitize_result result = result_of("memcheck", "memcheck_clean.txt", judged_tests({verdict::accepted}));
    result.log = parse_sanitizer_log(text);
    result.findings = map_findings(result.log, kProg, "");
    const std::string report = printed(result);
    CHECK(report.find("... and 2 more (--json lists them all)\n") != std::string::npos);
    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");
    const nlohmann::json json = sanitize_json(spec, kProg, result);
    CHECK(json.at("findings").size() == 7);
    CHECK(json.at("verdict") == "findings");
    CHECK(json.at("exit_code") == exit_sanitizer_findings);
    CHECK(json.at("findings")[6].at("place") == kProg + ":7");
    CHECK(json.at("tool_summary") == "ERROR SUMMARY: 7 errors");
}

TEST_CASE("the launcher: the tool, its report in the log file alone, padding for memcheck", "[sanitizer]") {
    const auto memcheck = sanitizer_launcher("/opt/cs/compute-sanitizer", "memcheck", "/tmp/a%b/log");
    CHECK(memcheck.front() == "/opt/cs/compute-sanitizer");
    CHECK(memcheck[1] == "--tool");
    CHECK(memcheck[2] == "memcheck");
    CHECK(memcheck[3] == "--log-file");
    CHECK(memcheck[4] == "/tmp/a%%b/log");  // compute-sanitizer expands % in the name
    CHECK(std::find(memcheck.begin(), memcheck.end(), "--padding") != memcheck.end());
    const auto race = sanitizer_launcher("compute-sanitizer", "racecheck", "/tmp/log");
    CHECK(std::find(race.begin(), race.end(), "--padding") == race.end());
}
