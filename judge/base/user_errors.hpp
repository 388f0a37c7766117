#pragma once
// The errors a user or their machine causes, each with a fixed exit code (exit_codes.hpp). Code
// that finds one throws it; report_current_exception() is the one place that turns any exception
// into a message and an exit code.
#include <stdexcept>
#include <string>

namespace gpujudge {

// Bad arguments: an unknown problem or command, a missing file, a --home without problems/.
// Derives from std::invalid_argument, which resolve_problem threw before it existed.
class usage_error : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The machine lacks something gpujudge needs that the user installs (nvcc, a host compiler).
class environment_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `profile`: ncu may not read the GPU's performance counters (it printed ERR_NVGPUCTRPERM).
class counters_denied_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An error of the machine's, neither the user's input nor a bug: a tool it lacks (environment_error) or
// a folder that cannot be made or written (a filesystem_error). Exit 13; a grade stops at the first, as
// it would fail every submission alike.
bool machine_error(const std::exception& error);

// Call only inside a catch block: prints the exception being handled to stderr — a problem.yaml
// error as its own "path:line: message", anything else as "gpujudge: <message>" ("internal
// error" for what no user can fix) — and returns its exit code.
int report_current_exception();

}  // namespace gpujudge
