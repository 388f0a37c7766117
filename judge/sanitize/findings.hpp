#pragma once
// compute-sanitizer's records as findings in a submission: each place once, however many threads
// the tool reported there, named by the user's own file and line with that line quoted. What lies
// in gpujudge's own kernels is kept apart (a bug in gpujudge, never the user's), and so is what
// names no device code (the tool's own errors).
#include "sanitize/log.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct sanitizer_finding {
    std::string kind;
    bool warning = false;              // every record merged into it was a warning
    std::vector<site_access> at;       // the user's path where the site is in their file
    std::string quoted;                // the source line at at[0], trimmed, where it is in the user's file
    long long reports = 0;             // records merged into it (memcheck: one per faulting thread)
    long long hazards = 0;             // racecheck: hazards summed
    std::string thread;                // the first record's
    std::vector<std::string> details;  // the first record's
};

struct sanitizer_findings {
    std::vector<sanitizer_finding> submission;  // the user's file, or a header or library it compiled in
    std::vector<sanitizer_finding> judge;       // gpujudge's own kernels
    std::vector<sanitizer_finding> other;       // no device code named
};

// `source`: the file as the user named it; `compiled_from`: the path the library's line info names
// (compile_result::compiled_from; the source's own when empty). The first site of a record decides
// whose it is: the user's file, then gpujudge's namespace (the judge's kernels), then anything else
// in device code is the user's (a header of theirs, a library such as CUB that they called).
sanitizer_findings map_findings(const sanitizer_log& log, const std::filesystem::path& source,
                                const std::filesystem::path& compiled_from);

}  // namespace gpujudge
