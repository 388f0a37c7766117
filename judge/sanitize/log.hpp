#pragma once
// compute-sanitizer's text report (its --log-file), read into records: what each tool found, where
// in the code, and whether the tool got as far as its summary.
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// A place in device code as the tool names it: "reduce(const float *, float *, int)+0x80 in prog.cu:23".
struct code_site {
    std::string function;  // demangled, with its offset
    std::string file;      // as printed (a file name by default); empty without line info
    int line = 0;
};

// One side of a finding: racecheck names two (a write and a read), the other tools one.
struct site_access {
    std::string access;  // racecheck's "Write" or "Read"; empty for the other tools
    code_site site;
};

struct sanitizer_record {
    std::string kind;                  // "Invalid __global__ read of size 4 bytes", "Race", "Potential WAR hazard"...
    bool warning = false;              // racecheck's "Warning:" (hazards that can be benign)
    std::vector<site_access> at;       // empty where the tool named no device code (its own errors)
    std::string thread;                // "thread (232,0,0) in block (3,0,0)" where given
    std::vector<std::string> details;  // the other lines: "Access to 0x7fc1... is out of bounds"...
    long long hazards = 1;             // racecheck: how many hazards the record stands for
};

struct sanitizer_log {
    std::vector<sanitizer_record> records;
    // "ERROR SUMMARY: 26 errors" or "RACECHECK SUMMARY: ...": written last, so the tool finished.
    std::optional<std::string> summary;
};

// Reads a report written with the default prefix (=========); lines without it are not the tool's.
sanitizer_log parse_sanitizer_log(const std::string& text);

}  // namespace gpujudge
