#pragma once
// The subcommands of gpujudge: each defines its options on a CLI11 subcommand and returns the
// action that runs it. main.cpp holds the one table that lists them.
#include "judging/modes.hpp"
#include "report/judgement.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace gpujudge {

struct cli_context {
    judge_context judge;
    style look;
};

using command_action = std::function<int(cli_context&)>;
using command_definition = command_action (*)(CLI::App& command);

struct command_entry {
    const char* name;
    const char* summary;
    command_definition define;
};

command_action define_list(CLI::App& command);
command_action define_show(CLI::App& command);
command_action define_init(CLI::App& command);
command_action define_run(CLI::App& command);
command_action define_submit(CLI::App& command);
command_action define_history(CLI::App& command);
command_action define_validate(CLI::App& command);
command_action define_bench(CLI::App& command);
command_action define_profile(CLI::App& command);
command_action define_sanitize(CLI::App& command);
command_action define_asm(CLI::App& command);
command_action define_path(CLI::App& command);
command_action define_serve(CLI::App& command);

// What `run` and `submit` share: a problem, a file and how to show the judgement.
struct judge_request {
    std::string problem;
    std::string source;
    bool json = false;
};

// Adds the arguments every judging command takes: the problem, the file, --json.
void add_judge_arguments(CLI::App& command, judge_request& request);

// Judges the request's file with the options `options_for` gives for its problem, with progress
// on a terminal, prints the report (or JSON), and returns the exit code.
int judge_and_report(cli_context& context, const judge_request& request,
                     const std::function<judge_options(const problem_spec&)>& options_for);

// --no-torch, which `submit` and `bench` take: no × torch column, so no Python runner to start.
void add_no_torch_flag(CLI::App& command, bool& no_torch);

// Loads a problem named by slug or folder; throws usage_error for an unknown one, spec_error for a
// refused problem.yaml. Errors reach main, which maps them to exit codes (user_errors.hpp).
problem_spec load_named_problem(const cli_context& context, const std::string& name);

// Throws usage_error unless `path` names a file that can be read as a source: "no such file", "is a
// directory", "file name too long".
void require_source_file(const std::string& path);

}  // namespace gpujudge
