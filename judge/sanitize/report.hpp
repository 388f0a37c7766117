#pragma once
// What `sanitize` concludes from the tests judged under compute-sanitizer and the tool's own report:
// a verdict of its own with its exit code, shown as text or as one JSON object.
#include "judging/submission.hpp"
#include "report/judgement.hpp"
#include "sanitize/findings.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

namespace gpujudge {

struct sanitize_result {
    std::string tool;  // memcheck, racecheck, synccheck or initcheck
    judgement judged;  // the tests as judged under the tool
    sanitizer_log log;
    sanitizer_findings findings;
};

enum class sanitize_verdict {
    clean,           // the tool ran through every test and found nothing: exit 0
    findings,        // it found errors in the submission's code: exit 8
    judge_findings,  // only in gpujudge's own kernels: a bug in gpujudge, exit 12
    incomplete,      // a test did not run (a crash, a hang) or the tool did not finish
    not_run,         // compile error or no device: their own exit codes
};

struct sanitize_decision {
    sanitize_verdict verdict = sanitize_verdict::clean;
    int exit_code = 0;
    std::string line;  // "sanitize: clean (memcheck, 16 tests)", "sanitize: 2 findings (racecheck)"...
};

// Findings first (whatever else went wrong, they are the submission's), then the judge's own,
// then what kept a clean answer from being sure.
sanitize_decision decide_sanitize(const sanitize_result& result);

// How many findings the text shows in full; the JSON has them all.
constexpr std::size_t kShownFindings = 5;

void print_sanitize(std::FILE* out, const problem_spec& spec, const std::filesystem::path& source,
                    const sanitize_result& result, style look);

nlohmann::json sanitize_json(const problem_spec& spec, const std::filesystem::path& source,
                             const sanitize_result& result);

}  // namespace gpujudge
