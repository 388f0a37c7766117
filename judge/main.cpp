// gpujudge: judges CUDA solutions of reduction exercises against CPU references, offline.
#include "catalog.hpp"
#include "commands.hpp"
#include "compiler.hpp"
#include "exit_codes.hpp"
#include "history.hpp"
#include "subprocess.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

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
};

std::filesystem::path runner_beside(const char* argv0) {
    std::error_code error;
    auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) self = std::filesystem::absolute(argv0);
    return self.parent_path() / "gpujudge-runner";
}

}  // namespace

}  // namespace gpujudge

int main(int argc, char** argv) {
    using namespace gpujudge;
    CLI::App app{"gpujudge: an offline judge for GPU reduction exercises"};
    app.require_subcommand(1);
    std::string color = "auto";
    std::string home;
    bool verbose = false;
    bool timings = false;
    std::string backend = "device";
    app.add_option("--color", color, "Colour the output: auto, always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    app.add_option("--home", home, "Folder holding problems/ and solutions/ (default: found from here)");
    app.add_flag("-v,--verbose", verbose, "Log what the judge does");
    app.add_option("--backend", backend,
                   "Where solve runs: device (a GPU), or host: C++ files built with the host compiler and called on "
                   "host memory, for testing the judge itself without a GPU")
        ->check(CLI::IsMember({"device", "host"}));
    app.add_flag("--timings", timings, "Print where the time went (compile, references, judged calls, timed runs)");

    std::map<CLI::App*, command_action> actions;
    for (const auto& entry : kCommands) {
        CLI::App* command = app.add_subcommand(entry.name, entry.summary);
        actions[command] = entry.define(*command);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        app.exit(help);
        return exit_accepted;
    } catch (const CLI::ParseError& error) {
        app.exit(error);
        return exit_usage;
    }

    auto logger = spdlog::stderr_color_mt("gpujudge");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
    become_subreaper();

    cli_context context;
    context.look.color = color == "always" || (color == "auto" && isatty(STDOUT_FILENO));
    context.judge.home = home.empty() ? find_home() : std::filesystem::path(home);
    context.judge.compiler.cache_dir = default_cache_dir();
    context.judge.runner.runner_exe = runner_beside(argv[0]);
    context.judge.runner.backend = backend == "host" ? runner_backend::host : runner_backend::device;
    std::optional<history> results;
    try {
        results.emplace(default_history_path());
        context.judge.results = &*results;
    } catch (const std::exception& error) {
        spdlog::warn("{}; results are not kept", error.what());
    }
    try {
        for (auto& [command, action] : actions) {
            if (!command->parsed()) continue;
            const int exit = action(context);
            if (timings || verbose) fmt::print(stderr, "timings: {}\n", context.judge.timings.summary());
            return exit;
        }
    } catch (const std::exception& error) {
        fmt::print(stderr, "gpujudge: internal error: {}\n", error.what());
        return exit_internal;
    }
    return exit_usage;
}
