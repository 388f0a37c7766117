#pragma once
// Grading through Slurm's own commands: one job array (sbatch --array), each task judging its
// slice of the submissions into a database of its own in the run folder; squeue and sacct say how
// the tasks ended; collecting merges the tasks' rows into the gradebook, and every submission of a
// task that ended before judging it becomes a task_failed row (--retry-failed judges it again).
#include "grade/grade_reports.hpp"
#include "grade/gradebook.hpp"
#include "grade/local_grader.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpujudge {

struct slurm_settings {
    std::string partition, time, account;
    std::vector<std::string> extra;  // passed to sbatch as given
    int tasks = 0;                   // 0: one per 8 submissions, at most 64
    bool gpu_per_task = true;        // --gres=gpu:1 (not with the host backend)
    bool timed = true;
    std::vector<std::string> task_command;  // gpujudge and its global options; "grade --task <manifest>" follows
};

// A manifest's hex (base/hex_text.hpp) as the bytes it spells; throws usage_error for what is not hex.
std::string from_hex(const std::string& hex);

// The manifest of a job array (slurm/job-<n>/manifest.json): its tasks, whether timed, and each
// submission, whose names and path are kept as hex of their bytes (any bytes, not only UTF-8); and
// the submissions read back from one.
nlohmann::json manifest_of(const std::vector<grade_job>& jobs, int tasks, bool timed);
std::vector<grade_job> jobs_of(const nlohmann::json& manifest);

// Submits the array for `jobs`; returns the job's folder under <run>/slurm. Throws
// environment_error without sbatch, and when sbatch refuses (with its own words; the job's folder
// is removed, as nothing was submitted).
std::filesystem::path submit_array(const std::filesystem::path& run_dir, const std::vector<grade_job>& jobs,
                                   const slurm_settings& settings);

// The Slurm job id of a job folder.
std::string job_id_of(const std::filesystem::path& job_dir);

// The job folder of the run's latest array, or none.
std::optional<std::filesystem::path> latest_job(const std::filesystem::path& run_dir);

// Waits while any task is pending or running, with the progress line on a terminal.
void follow_job(const std::filesystem::path& job_dir, bool progress_line);

// What collecting a job came to, beside the rows it stored.
struct collected_job {
    int failed = 0;  // task_failed rows: submissions a task left unjudged
    // Problems whose reference failed inside a task: their rows are invalid_problem.
    std::map<std::string, invalid_problem> broken;
};

// Merges the job's results into `book`: what its tasks judged, and a task_failed row for each
// submission a task left unjudged.
collected_job collect_job(const std::filesystem::path& job_dir, gradebook& book);

// The class folder a job's file lies in: its path without the file's key (<class>/<student>/<problem>.cu);
// empty for a path that does not end with its key.
std::filesystem::path class_folder_of(const grade_job& job);

// Inside a task: judges the task's slice ($SLURM_ARRAY_TASK_ID) of the manifest's submissions.
void run_task(const std::filesystem::path& manifest, const judge_context& context);

}  // namespace gpujudge
