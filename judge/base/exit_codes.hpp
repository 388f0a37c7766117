#pragma once
// gpujudge's exit codes: fixed, documented in README.md ("Verdicts and exit codes"), asserted in tests.
// Errors become exit codes in one place: report_current_exception() (user_errors.hpp).
#include "checks/verdict.hpp"

namespace gpujudge {

enum exit_code : int {
    exit_accepted = 0,
    exit_wrong_answer = 1,
    exit_compile_error = 2,
    exit_runtime_error = 3,
    exit_time_limit_exceeded = 4,
    exit_memory_violation = 5,
    exit_no_device = 6,
    exit_impossible_time = 7,     // a timed run faster than the memory system allows
    exit_sanitizer_findings = 8,  // `sanitize`: compute-sanitizer reported errors in solve's kernels
    exit_invalid_problem = 10,    // problem data refused: bad problem.yaml, reference or solutions
    exit_usage = 11,              // bad arguments, unknown problem or command, missing file, --home without problems/
    exit_internal = 12,           // a bug in gpujudge itself
    exit_environment = 13,        // a tool gpujudge needs is missing (nvcc, a host C++ compiler, ncu,
                                  // compute-sanitizer), or a folder it needs cannot be made or written
    exit_counters_denied = 14,    // `profile`: ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM)
};

inline int exit_code_for(verdict v) {
    switch (v) {
        case verdict::accepted:
            return exit_accepted;
        case verdict::wrong_answer:
            return exit_wrong_answer;
        case verdict::compile_error:
            return exit_compile_error;
        case verdict::runtime_error:
            return exit_runtime_error;
        case verdict::time_limit_exceeded:
            return exit_time_limit_exceeded;
        case verdict::memory_violation:
            return exit_memory_violation;
        case verdict::no_device:
            return exit_no_device;
        case verdict::impossible_time:
            return exit_impossible_time;
        case verdict::skipped:
            return exit_internal;
    }
    return exit_internal;
}

}  // namespace gpujudge
