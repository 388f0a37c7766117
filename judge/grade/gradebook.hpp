#pragma once
// The gradebook: a row per submission of a class, kept in SQLite as each result finishes, so that
// an interrupted grade goes on where it stopped and a rerun judges only what changed.
#include <sqlite3.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// What grading one file came to. `status` is a verdict's name, or one of the statuses below for
// what was never judged.
struct grade_row {
    std::string file;  // relative to the class folder: the row's key
    std::string student;
    std::string problem;
    std::string status;
    int passed = 0;
    int total = 0;
    std::optional<double> median_us;
    std::optional<double> gbps;
    std::optional<double> percent_of_ceiling;
    std::optional<double> speedup;  // × the problem's baseline
    std::optional<double> ceiling_gbps;
    std::string source_hash;
    std::string spec_hash;
    std::string gpu;
    std::string judged_at;  // UTC, "YYYY-MM-DD HH:MM:SS"
    double wall_s = 0;
    std::string reason;
    // Which GPU of its machine judged it (nvidia-smi's number); none for rows never judged on one,
    // a Slurm task's GPU not named by a number, or rows of gradebooks from before it was kept.
    std::optional<int> gpu_index;
    // What `submit` would have printed for the file (every diagnostic, each test's verdict and message, its
    // output, the timed runs): a grade's feedback/<file>.txt. Empty for rows never judged, whose feedback is
    // their status and reason, and for rows of gradebooks from before it was kept. Not in the CSV or JSON.
    std::string feedback;
};

// Statuses of files that were not judged, beside the verdicts.
namespace grade_status {
inline const char* const unknown_problem = "unknown_problem";
inline const char* const not_a_source = "not_a_source";
inline const char* const empty_folder = "empty_folder";
inline const char* const unreadable = "unreadable";    // gone or unreadable when its turn came
inline const char* const judge_error = "judge_error";  // the problem's own files failed, or the judge did
// Its problem cannot be loaded (a broken problem.yaml): no judgement, and not the student's doing.
inline const char* const invalid_problem = "invalid_problem";
inline const char* const task_failed = "task_failed";  // its Slurm task ended before judging it
}  // namespace grade_status

// A judgement's verdict (not a bad input, nor a failure of the judge or of Slurm): reusable.
bool judged_status(const std::string& status);

// accepted / wrong / failed, as the summary counts them; "" for inputs that are no submission and for
// submissions of an invalid problem (counted apart).
std::string status_group(const std::string& status);

// "YYYY-MM-DD HH:MM:SS" in UTC, now.
std::string utc_now();

// The gradebook a path names: a run folder's gradebook.db, else the path itself (a gradebook file).
std::filesystem::path gradebook_path(const std::filesystem::path& run_or_file);

// The latest grade's run folder, which `grade` notes in the data folder ($GPUJUDGE_DATA_DIR/last-grade,
// beside the history) for `serve` to show when no --gradebook names one. Noting it never fails a
// grade (a warning at most); none when no grade has noted one.
void remember_grade_run(const std::filesystem::path& run);
std::optional<std::filesystem::path> remembered_grade_run();

class gradebook;

// `row` as a grade stores it: a file accepted by a grade without timed runs (--no-bench) keeps the times
// of its earlier timed row on the same bytes, problem files and GPU model (--rejudge --no-bench erased
// a class's times and emptied its leaderboard).
grade_row with_kept_times(const gradebook& book, grade_row row);

class gradebook {
public:
    // `write`: creates the database and its table when new, and adds the columns of later versions
    // to an older gradebook (gpu_index, feedback: empty). `read` (serve): changes nothing, and refuses a path
    // that holds no gradebook; an older one reads with no GPU numbers. Throws naming `path` when the
    // gradebook cannot be opened so.
    enum class access { write, read };
    explicit gradebook(const std::filesystem::path& path, access mode = access::write);
    ~gradebook();
    gradebook(const gradebook&) = delete;
    gradebook& operator=(const gradebook&) = delete;

    void store(const grade_row& row);  // one transaction: replaces the file's earlier row
    void remove(const std::string& file);
    std::optional<grade_row> row(const std::string& file) const;
    // A judged row of the same source, problem files and GPU, under any file name.
    std::optional<grade_row> judged_like(const std::string& source_hash, const std::string& spec_hash,
                                         const std::string& gpu) const;
    std::vector<grade_row> rows() const;    // by student, then file
    std::vector<std::string> gpus() const;  // the GPU names of the judged rows

private:
    sqlite3* db_ = nullptr;
    std::string columns_;  // what a row is read from
};

}  // namespace gpujudge
