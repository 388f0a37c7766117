#include "sanitize/run.hpp"

#include "base/file_text.hpp"
#include "base/temp_dir.hpp"
#include "judging/modes.hpp"
#include "process/sandbox.hpp"
#include "toolkit/compute_sanitizer.hpp"
#include "toolkit/programs.hpp"

#include <spdlog/spdlog.h>

namespace gpujudge {

namespace {

// The context's runner goes behind the tool for one submission, and back after it.
class launched_runner {
public:
    launched_runner(runner_settings& settings, std::vector<std::string> launcher,
                    const std::filesystem::path& report_folder)
        : settings_(settings), saved_(settings) {
        settings.launcher = std::move(launcher);
        settings.launcher_writable = {report_folder};  // the tool runs in the sandbox, before the runner
        settings.time_limit_scale = kSanitizerSlowdown;
    }
    ~launched_runner() { settings_ = saved_; }
    launched_runner(const launched_runner&) = delete;
    launched_runner& operator=(const launched_runner&) = delete;

private:
    runner_settings& settings_;
    runner_settings saved_;
};

}  // namespace

sanitize_result sanitize_submission(const problem_spec& spec, const std::filesystem::path& source,
                                    const std::string& tool, judge_context& context) {
    const std::filesystem::path sanitizer = find_toolkit_program("compute-sanitizer");
    // The tool's report is read from its log file alone, in a folder of this run's own: what the
    // runner prints is the submission's too. The submission runs in the tool's sandbox and can write
    // that file as well (findings are the learner's advice, never a verdict), but never make the
    // judge read another: the log is taken as a regular file, not through a link it put there.
    // The folder the sandbox writes lies inside the run's own: a root judge gives it to its sandbox's
    // user, who never holds the folder above, where the log is taken.
    const temp_dir folder("sanitize");
    const std::filesystem::path written = folder.path() / "written";
    std::filesystem::create_directory(written);
    const std::filesystem::path log_file = written / "compute-sanitizer.log";
    sanitize_result result;
    result.tool = tool;
    {
        const launched_runner launched(context.runner, sanitizer_launcher(sanitizer, tool, log_file), written);
        result.judged = judge_submission(spec, source, sanitize_options(spec), context);
    }  // the runner has ended, and the tool has written its report
    const std::filesystem::path taken = folder.path() / "taken.log";
    if (const auto refused = take_from_sandbox(log_file, taken);
        refused && std::filesystem::exists(std::filesystem::symlink_status(log_file)))
        spdlog::warn("compute-sanitizer's log was not read: {}", *refused);
    result.log = parse_sanitizer_log(read_file_text(taken).value_or(""));
    result.findings = map_findings(result.log, source, result.judged.compile.compiled_from);
    return result;
}

}  // namespace gpujudge
