#include "toolkit/compute_sanitizer.hpp"

#include "toolkit/cuda_toolkit.hpp"

namespace gpujudge {

namespace {

constexpr const char* kProgram = "compute-sanitizer";

// compute-sanitizer reads %p, %q{NAME} and %% in the log file's name: a literal % is written %%.
std::string escape_percent(const std::string& path) {
    std::string escaped;
    for (const char c : path) escaped += c == '%' ? std::string("%%") : std::string(1, c);
    return escaped;
}

}  // namespace

const std::vector<std::string>& sanitizer_tools() {
    static const std::vector<std::string> tools{"memcheck", "racecheck", "synccheck", "initcheck"};
    return tools;
}

std::filesystem::path find_compute_sanitizer() {
    return find_toolkit_program(kProgram);
}

std::vector<std::string> sanitizer_launcher(const std::filesystem::path& executable, const std::string& tool,
                                            const std::filesystem::path& log_file) {
    std::vector<std::string> command{executable.string(), "--tool", tool};
    command.insert(command.end(), {"--log-file", escape_percent(log_file.string()), "--print-limit", "1000"});
    // Device findings only: the host API errors that follow a stopped kernel are the judge's calls
    // failing, not new mistakes; the runner's exit status is the judge's business.
    command.insert(command.end(), {"--show-backtrace", "no", "--report-api-errors", "no", "--check-exit-code", "no"});
    // A kernel the tool stops ends alone, not the CUDA context with it: the runner goes on to the
    // next test, and every test is seen.
    command.insert(command.end(), {"--destroy-on-device-error", "kernel"});
    // A read just past an allocation can land in the next one, where memcheck sees nothing wrong:
    // padding after every allocation keeps such reads outside all of them.
    if (tool == "memcheck") command.insert(command.end(), {"--padding", "65536"});
    return command;
}

}  // namespace gpujudge
