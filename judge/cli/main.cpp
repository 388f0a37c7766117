// gpujudge: judges CUDA solutions of reduction exercises against CPU references, offline.
#include "base/exit_codes.hpp"
#include "base/temp_dir.hpp"
#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/course/cmd_grade.hpp"
#include "compile/compiler.hpp"
#include "history/database.hpp"
#include "process/child_process.hpp"
#include "process/stop_signals.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

namespace gpujudge {

namespace {

const command_entry kCommands[] = {
    {"list", "List the problems", define_list},
    {"show", "Show a problem: statement, signature, constraints, examples", define_show},
    {"init", "Write a starter .cu file with the exact signature", define_init},
    {"run", "Compile a solution and run its examples and functional tests: no timing, quick", define_run},
    {"submit", "Compile a solution and judge it on the GPU", define_submit},
    {"history", "Every run and submit so far, newest first, and the personal bests", define_history},
    {"validate", "Check problems: schema, reference against examples, solutions compile (--run: verdicts)",
     define_validate},
    {"bench", "Time solutions against the problem's baseline", define_bench},
    {"profile", "Profile a solution's kernels with Nsight Compute at one benchmark size (--compare: two solutions)",
     define_profile},
    {"sanitize", "Run the examples and functional tests under compute-sanitizer: findings at file.cu:line",
     define_sanitize},
    {"asm", "Show a solution's SASS (or PTX with --ptx), each source line above the instructions it produced",
     define_asm},
    {"path", "A problem's solutions in order, naive to fastest: each step's technique and its H100 figures",
     define_path},
    {"grade", "Judge a class: <dir>/<student>/<problem>.cu on every GPU or through Slurm, into a gradebook",
     define_grade},
    {"serve", "Serve the web page (problems, editor, Run and Submit, history) on this machine", define_serve},
};

// A file named on the command line whose name starts with '-' reads as an option (CLI11 then says
// "source is required"): how to name it instead. Empty when there is none.
std::string dash_file_hint(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") break;
        std::error_code error;
        if (arg.size() > 1 && arg.front() == '-' && std::filesystem::is_regular_file(arg, error))
            return fmt::format("; '{}' reads as an option: write ./{}, or -- before it", arg, arg);
    }
    return "";
}

// CLI11's words for a mistake on the command line, but an unknown command named as such where
// CLI11 says only "A subcommand is required".
std::string describe_parse_error(const CLI::App& app, const CLI::ParseError& error) {
    if (app.get_subcommands().empty()) {
        const std::vector<std::string> extra = app.remaining();
        const auto word =
            std::find_if(extra.begin(), extra.end(), [](const std::string& arg) { return arg.rfind('-', 0) != 0; });
        if (word != extra.end())
            return fmt::format("unknown command '{}' (see gpujudge --help for the commands)", *word);
        if (!extra.empty()) return fmt::format("unknown option '{}' (see gpujudge --help)", extra.front());
        if (dynamic_cast<const CLI::RequiredError*>(&error))
            return "a command is required (see gpujudge --help for the commands)";
    }
    return fmt::format("{} (see gpujudge --help)", error.what());
}

// Without the database the judge still judges: say so, and go on.
void open_history(std::optional<history>& results, cli_context& context) {
    try {
        results.emplace(default_history_path());
        context.judge.results = &*results;
    } catch (const std::exception& error) {
        fmt::print(stderr, "gpujudge: history unusable: {}; results are not kept\n", error.what());
    }
}

std::filesystem::path runner_beside(const char* argv0) {
    std::error_code error;
    auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) self = std::filesystem::absolute(argv0);
    return self.parent_path() / "gpujudge-runner";
}

// Options of gpujudge itself, accepted before or after the command.
struct global_options {
    std::string color = "auto";
    std::string home;
    bool verbose = false;
    bool timings = false;
    std::string backend = "device";
    bool no_sandbox = false;
};

void add_global_options(CLI::App& app, global_options& global) {
    app.add_option("--color", global.color, "Colour the output: auto, always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    app.add_option("--home", global.home, "Folder holding problems/ and solutions/ (default: found from here)");
    app.add_flag("-v,--verbose", global.verbose, "Log what the judge does");
    app.add_option("--backend", global.backend,
                   "Where solve runs: device (a GPU), or host: C++ files built with the host compiler and called on "
                   "host memory, for testing the judge itself without a GPU")
        ->check(CLI::IsMember({"device", "host"}));
    app.add_flag("--no-sandbox", global.no_sandbox,
                 "Run submissions without the sandbox (bubblewrap): with your rights, over your files; their "
                 "results are not kept in the history");
    app.add_flag("--timings", global.timings,
                 "Print where the time went (compile, references, judged calls, timed runs)");
    app.set_version_flag("--version", "gpujudge " GPUJUDGE_VERSION, "Print gpujudge's version and exit");
    app.fallthrough();  // subcommands inherit it: global options are accepted after the command too
}

cli_context make_context(const global_options& global, const char* argv0) {
    cli_context context;
    context.look.color = global.color == "always" || (global.color == "auto" && isatty(STDOUT_FILENO));
    context.judge.home = global.home.empty() ? find_home() : std::filesystem::path(global.home);
    context.judge.compiler.cache_dir = default_cache_dir();
    context.judge.compiler.hidden = {default_history_path().parent_path()};  // and the cache, always
    context.judge.compiler.sandbox = !global.no_sandbox;
    context.judge.runner.runner_exe = runner_beside(argv0);
    context.judge.runner.backend = global.backend == "host" ? runner_backend::host : runner_backend::device;
    context.judge.runner.sandbox = !global.no_sandbox;
    context.judge.runner.cache_dir = context.judge.compiler.cache_dir;
    context.judge.runner.hidden = context.judge.compiler.hidden;
    return context;
}

int run_parsed(const std::map<CLI::App*, command_action>& actions, const global_options& global, const char* argv0) {
    auto logger = spdlog::stderr_color_mt("gpujudge");
    spdlog::set_default_logger(logger);
    spdlog::set_level(global.verbose ? spdlog::level::debug : spdlog::level::warn);
    become_subreaper();
    sweep_abandoned_temp_dirs();
    cli_context context = make_context(global, argv0);
    std::optional<history> results;
    if (global.no_sandbox)  // an unconfined submission could have written the history: keep nothing of it
        fmt::print(stderr,
                   "gpujudge: warning: --no-sandbox: submissions run unconfined, with your rights over your files; "
                   "the history is not used, results are not kept (a grade's rows are, marked: a grade with the "
                   "sandbox judges them again)\n");
    else
        open_history(results, context);
    for (const auto& [command, action] : actions) {
        if (!command->parsed()) continue;
        const int exit = action(context);
        if (global.timings || global.verbose) fmt::print(stderr, "timings: {}\n", context.judge.timings.summary());
        // What stdout still buffers, written: a --json into a full disk left an empty file and exit 0.
        errno = 0;
        const bool flushed = std::fflush(stdout) == 0;
        if (!flushed || std::ferror(stdout))
            throw environment_error(fmt::format("cannot write the output: {}",
                                                !flushed && errno ? std::strerror(errno) : "an earlier write failed"));
        return exit;
    }
    return exit_usage;  // unreachable: require_subcommand(1)
}

}  // namespace

}  // namespace gpujudge

int main(int argc, char** argv) {
    using namespace gpujudge;
    handle_stop_signals();
    CLI::App app{"gpujudge: an offline judge for GPU reduction exercises"};
    app.require_subcommand(1);
    global_options global;
    add_global_options(app, global);
    std::map<CLI::App*, command_action> actions;
    for (const auto& entry : kCommands) {
        CLI::App* command = app.add_subcommand(entry.name, entry.summary);
        actions[command] = entry.define(*command);
    }
    try {
        try {
            app.parse(argc, argv);
        } catch (const CLI::Success& done) {  // --help, --version
            return app.exit(done);
        } catch (const CLI::ParseError& error) {
            throw usage_error(describe_parse_error(app, error) + dash_file_hint(argc, argv));
        }
        return run_parsed(actions, global, argv[0]);
    } catch (...) {
        return report_current_exception();  // the one place where errors become exit codes
    }
}
