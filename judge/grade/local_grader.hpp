#pragma once
// Grading on this machine: compiles on every CPU core ahead of one worker thread per GPU, each of
// whose runners sees only its GPU; each result goes to `sink` as soon as it is known.
#include "grade/class_folder.hpp"
#include "grade/gradebook.hpp"
#include "judging/submission.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// A submission to judge, with what decides whether an earlier judgement still holds.
struct grade_job {
    class_entry entry;
    std::string source_hash;  // submission_hashes().first
    std::string spec_hash;
    // The source's own bytes at the scan (content_hash): the bytes judged must be these, else the file
    // was rewritten during the grade, and the row would name what was not judged.
    std::string file_hash;
};

// Hides the class folder, the run folder and the course's problems/ and solutions/ (of context.home) from
// every compile and runner of `context`: no bind a tool, the system or Python's path makes (a course
// repository installed with pip -e) shows a classmate's hand-in, the gradebook or the staff's solutions
// to a submission. Each compile then also hashes what it compiled (compiler_settings::hash_submission).
void hide_grade_folders(judge_context& context, const std::filesystem::path& class_dir,
                        const std::filesystem::path& run_dir);

// What a judgement of `source` depends on of the student's files (submission_hash: its bytes and local
// headers; a Python file's bytes alone), with the source's own bytes' hash (grade_job::file_hash), both of
// one read; "" when it cannot be read.
std::pair<std::string, std::string> submission_hashes(const std::filesystem::path& source);

struct local_settings {
    // A worker each, by the GPU it judges on (nvidia-smi's number): its runners see that GPU alone
    // (runner_settings::gpu) and its rows name it (grade_row::gpu_index). A negative number: unknown.
    std::vector<int> gpus{0};
    // Whether the runners are given their worker's GPU. Off inside a Slurm task, whose GPU Slurm chose
    // (its CUDA_VISIBLE_DEVICES, which the runners inherit): `gpus` then only names it in the rows.
    bool select_gpu = true;
    // Each worker's GPU model as far as known before judging ("host" on the host backend): the GPU
    // of rows that never reach a device (compile errors) until the device names itself.
    std::vector<std::string> gpu_names;
    bool timed = true;
    bool progress_line = false;           // one line on stderr, rewritten (a terminal)
    std::filesystem::path judge_history;  // the run's own ceilings and baselines; empty: none kept
};

// Where the time went.
struct grade_stats {
    int judged = 0;
    double wall_s = 0;
    double compile_s = 0;               // summed over the compile threads
    std::vector<double> worker_busy_s;  // per worker, judging
    // Problems whose reference failed while judging (slug → its error): their submissions' rows are
    // invalid_problem, not counted against the students.
    std::map<std::string, std::string> broken_problems;
};

using row_sink = std::function<void(const grade_row&)>;

// The runner settings of the worker judging on `gpu`: `base`, seeing that GPU alone when `select`
// (through its environment, never a launcher: a launcher is a tool the runner runs under, which has
// no ceiling measured and a longer exit).
runner_settings worker_runner(const runner_settings& base, int gpu, bool select);

// Judges `jobs` (each of a problem in `specs`). Never throws for a submission: every job becomes
// a row, whatever happens to it; but an error of the machine's (environment_error, a folder that cannot
// be made) stops the grade and is thrown, the rows judged before it stored.
grade_stats grade_locally(const std::vector<grade_job>& jobs, const std::map<std::string, problem_spec>& specs,
                          const judge_context& base, const local_settings& settings, const row_sink& sink);

// The row a judgement makes.
grade_row row_of(const grade_job& job, const problem_spec& spec, const judgement& result, bool host_backend);

// A GPU's number ("0", "12"); none for anything else (a UUID, a list).
std::optional<int> gpu_number(const std::string& text);

// How the progress line and the statistics name a worker's GPU: "gpu2" ("gpu" when unknown).
std::string gpu_label(int gpu);

// "1m05s", "3h02m".
std::string short_duration(double seconds);

}  // namespace gpujudge
