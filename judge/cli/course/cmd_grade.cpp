// `gpujudge grade`: a class's submissions judged on this machine's GPUs or through Slurm, into the
// run folder's gradebook (CSV, JSON), leaderboard.md and summary.md.
#include "cli/course/cmd_grade.hpp"
#include "base/counted.hpp"
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/user_errors.hpp"
#include "cli/commands.hpp"
#include "grade/grade_plan.hpp"
#include "grade/grade_reports.hpp"
#include "grade/run_folder.hpp"
#include "grade/slurm_grader.hpp"
#include "process/child_process.hpp"
#include "process/stop_signals.hpp"
#include "runner/session.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace gpujudge {

namespace {

struct grade_options {
    std::string class_dir;
    std::string out;
    std::string gpus = "all";
    bool rejudge = false;
    bool retry_failed = false;
    bool no_bench = false;
    bool slurm = false;
    slurm_settings cluster;
    bool no_wait = false;
    std::string collect;
    std::string task;
};

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    for (std::string part; std::getline(in, part, separator);)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

// The GPUs nvidia-smi lists, index → name; none without it.
std::map<std::string, std::string> listed_gpus() {
    std::map<std::string, std::string> gpus;
    if (!find_program("nvidia-smi")) return gpus;
    const auto listed =
        run_command({"nvidia-smi", "--query-gpu=index,name", "--format=csv,noheader"}, std::chrono::seconds(60));
    if (listed.exit.code != 0) return gpus;
    std::istringstream lines(listed.output);
    for (std::string line; std::getline(lines, line);) {
        const auto comma = line.find(", ");
        if (comma != std::string::npos) gpus[line.substr(0, comma)] = line.substr(comma + 2);
    }
    return gpus;
}

// GPU numbers, comma-separated; what `where` names them from, when one is not a number or is named
// twice (two workers on one GPU would time each other's runs).
std::vector<int> gpu_numbers(const std::string& text, const std::string& where) {
    std::vector<int> numbers;
    for (const auto& part : split(text, ',')) {
        const auto number = gpu_number(part);
        if (!number)
            throw usage_error(fmt::format("{}: '{}' is not a GPU number (nvidia-smi's: 0, 1, ...)", where, part));
        if (std::find(numbers.begin(), numbers.end(), *number) != numbers.end())
            throw usage_error(fmt::format("{}: GPU {} is named twice (one worker per GPU)", where, *number));
        numbers.push_back(*number);
    }
    return numbers;
}

// A GPU named that nvidia-smi does not list would judge nothing: its runners would see no device, or
// (CUDA_VISIBLE_DEVICES naming no GPU) every row would be no_device. Without nvidia-smi, no_gpu_here decides.
void refuse_unlisted(const std::vector<int>& named, const std::map<std::string, std::string>& listed) {
    if (listed.empty()) return;
    std::vector<std::string> indices;
    for (const auto& [index, name] : listed) indices.push_back(index);
    for (const int gpu : named)
        if (!listed.count(std::to_string(gpu)))
            throw usage_error(fmt::format("--gpus: GPU {} is not among the {} that nvidia-smi lists ({})", gpu,
                                          listed.size(), fmt::join(indices, ", ")));
}

// One worker per GPU named (nvidia-smi's numbers), or per GPU there is for "all": those that
// CUDA_VISIBLE_DEVICES names where it is set, else those nvidia-smi lists (else GPU 0, where there is
// no nvidia-smi: whether a runner opens a device is what decides, see no_gpu_here).
std::vector<int> worker_gpus(const std::string& wanted, bool host) {
    if (wanted != "all") {
        const auto named = gpu_numbers(wanted, "--gpus");
        if (named.empty()) throw usage_error("--gpus: 'all' or GPU numbers, comma-separated (0,1)");
        if (!host) refuse_unlisted(named, listed_gpus());
        return named;
    }
    if (host) return {0};
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible)
        return gpu_numbers(visible, "CUDA_VISIBLE_DEVICES (--gpus all)");
    std::vector<int> all;
    for (const auto& [index, name] : listed_gpus()) all.push_back(std::stoi(index));
    return all.empty() ? std::vector<int>{0} : all;
}

// Why a runner of this machine opens no device (a login node, no driver), probed once before any
// submission is compiled or judged: else every file of the class became a no_device row.
std::optional<std::string> no_gpu_here(const problem_spec& spec, const judge_context& judge, int gpu) {
    runner_session probe(spec, worker_runner(judge.runner, gpu, true));
    return probe.no_device();
}

std::filesystem::path run_folder(const grade_options& opts) {
    if (!opts.out.empty()) return std::filesystem::absolute(opts.out);
    auto dir = std::filesystem::absolute(opts.class_dir).lexically_normal();
    if (!dir.has_filename()) dir = dir.parent_path();
    return dir.parent_path() / (dir.filename().string() + "-grade");
}

// gpujudge as the tasks run it: this binary, with the options that decide the judging.
std::vector<std::string> task_command(const cli_context& context) {
    std::error_code error;
    auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    std::vector<std::string> argv{self.string(),
                                  "--color",
                                  "never",
                                  "--home",
                                  std::filesystem::absolute(context.judge.home).string(),
                                  "--backend",
                                  context.judge.runner.backend == runner_backend::host ? "host" : "device"};
    if (!context.judge.runner.sandbox) argv.push_back("--no-sandbox");
    return argv;
}

void report(const std::filesystem::path& run, gradebook& book) {
    const auto rows = book.rows();
    write_grade_reports(run, rows);
    fmt::print("{}\ngradebook: {}/gradebook.csv (and .json), leaderboard: {}/leaderboard.md\n", summary_markdown(rows),
               run.string(), run.string());
}

void print_stats(const grade_stats& stats, const std::vector<int>& gpus) {
    if (!stats.judged) return;
    std::string busy;
    for (std::size_t w = 0; w < stats.worker_busy_s.size(); ++w)
        busy += fmt::format(" {} {:.0f}%", gpu_label(gpus[w]),
                            stats.wall_s > 0 ? 100 * stats.worker_busy_s[w] / stats.wall_s : 0);
    fmt::print("judged {} in {}: {:.1f}/min; compiles {:.1f} s over the cores; workers busy:{}\n", stats.judged,
               short_duration(stats.wall_s), stats.wall_s > 0 ? stats.judged * 60 / stats.wall_s : 0, stats.compile_s,
               busy);
}

// Each problem that cannot be loaded, once: its own error (as validate gives it) and what became of
// its submissions.
void report_invalid_problems(const std::map<std::string, invalid_problem>& problems) {
    for (const auto& [slug, invalid] : problems) {
        const std::string kept =
            invalid.kept == 0 ? ""
            : invalid.kept == invalid.submissions
                ? (invalid.kept == 1 ? "it keeps its judgement" : "each keeps its judgement") +
                      std::string(" from before the problem broke; ")
                : fmt::format("{} of them keep their judgements from before the problem broke; ", invalid.kept);
        fmt::print(stderr,
                   "{}\ngrade: problem {} is invalid: its {} not judged ({}not counted against the students): "
                   "gpujudge validate {}, then grade again\n",
                   invalid.error, slug,
                   invalid.submissions == 1 ? std::string("submission was")
                                            : fmt::format("{} submissions were", invalid.submissions),
                   kept, slug);
    }
}

int collect(const std::filesystem::path& run) {
    const auto job = latest_job(run);
    if (!job) throw usage_error(fmt::format("{}: no Slurm job of a grade to collect", run.string()));
    // Stopped while it waits (Ctrl-C), gpujudge leaves the array to Slurm: say so, and how to go on.
    const std::string id = job_id_of(*job);
    set_stop_message(
        fmt::format("\ngrade: stopped waiting; Slurm job array {} goes on: collect it with gpujudge grade "
                    "--collect {}, or cancel it with scancel {}\n",
                    id, run.string(), id));
    follow_job(*job, isatty(STDERR_FILENO));
    set_stop_message("");
    gradebook book(run / "gradebook.db");
    remember_grade_run(run);
    const collected_job collected = collect_job(*job, book);
    if (collected.failed) {
        const auto class_dir = read_file_text(run / "class-folder");  // noted by the grade that made the run
        fmt::print(stderr,
                   "grade: {} in Slurm tasks that failed {} not judged: judge {} with gpujudge grade {} --out {} "
                   "--slurm --retry-failed\n",
                   counted(static_cast<std::size_t>(collected.failed), "submission"),
                   collected.failed == 1 ? "was" : "were", collected.failed == 1 ? "it" : "them",
                   class_dir ? *class_dir : "<class folder>", run.string());
    }
    report_invalid_problems(collected.broken);
    report(run, book);
    // A grade left incomplete by its cluster is the machine's (13); one a problem's reference spoilt, 10.
    return collected.failed ? exit_environment : collected.broken.empty() ? exit_accepted : exit_invalid_problem;
}

int grade_on_slurm(cli_context& context, grade_options& opts, const std::filesystem::path& run,
                   const grade_plan& plan) {
    opts.cluster.gpu_per_task = context.judge.runner.backend == runner_backend::device;
    opts.cluster.timed = !opts.no_bench;
    opts.cluster.task_command = task_command(context);
    const auto job = submit_array(run, plan.jobs, opts.cluster);
    fmt::print("submitted {} as Slurm job array {} ({})\n", counted(plan.jobs.size(), "submission"), job_id_of(job),
               job.string());
    if (opts.no_wait) {
        fmt::print("collect the results with: gpujudge grade --collect {}\n", run.string());
        return exit_accepted;
    }
    return collect(run);
}

// Whether `inner` is `outer` or lies inside it, both resolved.
bool lies_within(const std::filesystem::path& inner, const std::filesystem::path& outer) {
    const auto relative =
        std::filesystem::weakly_canonical(inner).lexically_relative(std::filesystem::weakly_canonical(outer));
    return !relative.empty() && *relative.begin() != "..";
}

// What makes a grade request wrong before anything is made: a run folder, a gradebook, a Slurm job.
void check_request(const grade_options& opts, const std::filesystem::path& run, const std::filesystem::path& home) {
    // A second folder (a student's file typed after the class) would reach sbatch as its job script.
    for (const auto& extra : opts.cluster.extra)
        if (extra.empty() || extra.front() != '-')
            throw usage_error(fmt::format(
                "grade: '{}': one class folder at a time (options for sbatch go after --, each starting with -)",
                extra));
    const bool cluster_options = !opts.cluster.extra.empty() || !opts.cluster.partition.empty() ||
                                 !opts.cluster.time.empty() || !opts.cluster.account.empty() ||
                                 opts.cluster.tasks > 0 || opts.no_wait;
    if (!opts.slurm && cluster_options)
        throw usage_error(
            "grade: --partition, --time, --account, --tasks, --no-wait and sbatch options go with --slurm");
    std::error_code error;
    if (!std::filesystem::is_directory(opts.class_dir, error))
        throw usage_error(fmt::format("grade: {}: no such folder", opts.class_dir));
    if (lies_within(run, opts.class_dir))
        throw usage_error(
            fmt::format("grade: the run folder {} lies inside the class folder {}: it would be taken for a "
                        "student's; give --out a folder outside it",
                        run.string(), opts.class_dir));
    // A student's problems/ would stand in for the course's (a grade run from inside the class folder).
    if (lies_within(home, opts.class_dir))
        throw usage_error(
            fmt::format("grade: the home {} lies inside the class folder {}: a student's problems/ would "
                        "judge the class; name the course's with --home or GPUJUDGE_HOME",
                        home.string(), opts.class_dir));
}

int grade(cli_context& context, grade_options& opts) {
    const bool host = context.judge.runner.backend == runner_backend::host;
    // Before the run folder is named: the path of "" cannot be made absolute.
    if (opts.class_dir.empty()) throw usage_error("grade: the class folder is required (<dir>/<student>/<problem>.cu)");
    const auto run = run_folder(opts);
    check_request(opts, run, context.judge.home);
    local_settings local;
    // Before the run folder is claimed: a folder claimed and left without a gradebook refused every later grade.
    local.gpus = worker_gpus(opts.gpus, host);
    const run_folder_claim claim(run, opts.class_dir, context.judge.home);  // until the reports are written
    hide_grade_folders(context.judge, opts.class_dir, run);
    gradebook book(run / "gradebook.db");
    remember_grade_run(run);  // serve's Leaderboard shows the latest grade
    plan_request request{opts.class_dir, run, context.judge.home, host, opts.rejudge, opts.retry_failed,
                         !opts.no_bench, {}};
    request.unconfined = !context.judge.runner.sandbox;
    const auto names = listed_gpus();
    if (host) request.gpus = {"host"};
    for (const int gpu : local.gpus) {
        const std::string number = std::to_string(gpu);
        const std::string name = host ? "host" : names.count(number) ? names.at(number) : "";
        local.gpu_names.push_back(name);
        if (!opts.slurm && !name.empty()) request.gpus.insert(name);
    }
    const grade_plan plan = plan_grade(request, book);
    fmt::print(
        "{} to judge, {} unchanged, {} judged under another name, {} not submissions, {} removed (no longer in the "
        "class folder)\n",
        plan.jobs.size(), plan.unchanged, plan.reused, plan.not_submissions, plan.removed);
    if (plan.to_time) fmt::print("{} accepted without timing (--no-bench): judged again, timed\n", plan.to_time);
    report_invalid_problems(plan.invalid);
    // What a clean grade exits with: exit_invalid_problem while a problem of the class cannot be loaded.
    const int ending = plan.invalid.empty() ? exit_accepted : exit_invalid_problem;
    if (opts.slurm && !plan.jobs.empty()) {
        const int collected = grade_on_slurm(context, opts, run, plan);
        return collected == exit_accepted ? ending : collected;
    }
    if (!host && !plan.jobs.empty())
        if (const auto why = no_gpu_here(plan.specs.begin()->second, context.judge, local.gpus.front())) {
            fmt::print(
                "grade: no GPU here ({}): nothing was judged; grade on a machine with a GPU, or through Slurm "
                "(--slurm)\n",
                *why);
            return exit_no_device;
        }
    local.timed = !opts.no_bench;
    local.progress_line = isatty(STDERR_FILENO);
    local.judge_history = run / "judge.db";
    std::map<std::string, invalid_problem> broken;  // a reference that failed while judging
    set_stop_message(fmt::format(
        "\ngrade: stopped; what was judged is kept in {}: grade the class again to go on where it stopped\n",
        (run / "gradebook.db").string()));
    const grade_stats stats = grade_locally(plan.jobs, plan.specs, context.judge, local, [&](const grade_row& row) {
        book.store(with_kept_times(book, row));
        if (row.status == grade_status::invalid_problem) ++broken[row.problem].submissions;
    });
    set_stop_message("");
    print_stats(stats, local.gpus);
    for (const auto& [slug, error] : stats.broken_problems) broken[slug].error = error;
    report_invalid_problems(broken);
    report(run, book);
    return broken.empty() ? ending : exit_invalid_problem;
}

}  // namespace

command_action define_grade(CLI::App& command) {
    auto opts = std::make_shared<grade_options>();
    command.add_option("dir", opts->class_dir, "The class folder: <dir>/<student>/<problem>.cu (or .py)");
    command.add_option("--out", opts->out, "The run folder: gradebook, leaderboard, summary (default: <dir>-grade)");
    command.add_option("--gpus", opts->gpus, "GPUs to judge on, a worker each: all, or numbers such as 0,1");
    command.add_flag("--rejudge", opts->rejudge, "Judge every submission again, even those judged before");
    command.add_flag("--retry-failed", opts->retry_failed,
                     "Judge only the submissions a failed Slurm task (or the judge) left unjudged");
    command.add_flag("--no-bench", opts->no_bench, "Judge the tests only: no timed runs, no leaderboard times");
    command.add_flag("--slurm", opts->slurm, "Judge through Slurm: one job array (sbatch --array)");
    command.add_option("--partition", opts->cluster.partition, "Slurm partition (with --slurm)");
    command.add_option("--time", opts->cluster.time, "Slurm time limit per task (with --slurm)");
    command.add_option("--account", opts->cluster.account, "Slurm account (with --slurm)");
    command.add_option("--tasks", opts->cluster.tasks, "Tasks of the job array (default: one per 8 submissions)")
        ->check(CLI::Range(1, 100000));  // PositiveNumber's message names a number 300 digits long
    command.add_flag("--no-wait", opts->no_wait, "Submit the job array and return (then: grade --collect <run>)");
    command.add_option("--collect", opts->collect, "Wait for a run's Slurm job and merge it into its gradebook")
        ->check([](const std::string& run) { return run.empty() ? std::string("a run folder is required") : ""; });
    command.add_option("--task", opts->task, "(inside a Slurm task) judge this task's slice of a manifest")->group("");
    command.add_option("sbatch_args", opts->cluster.extra, "After --: more options for sbatch");
    return [opts](cli_context& context) {
        if (!opts->task.empty()) {
            run_task(opts->task, context.judge);
            return static_cast<int>(exit_accepted);
        }
        if (!opts->collect.empty()) {
            const auto run = std::filesystem::absolute(opts->collect);
            const run_folder_claim claim(run, {}, {});
            return collect(run);
        }
        return grade(context, *opts);
    };
}

}  // namespace gpujudge
