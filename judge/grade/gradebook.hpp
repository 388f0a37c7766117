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
};

// Statuses of files that were not judged, beside the verdicts.
namespace grade_status {
inline const char* const unknown_problem = "unknown_problem";
inline const char* const not_a_source = "not_a_source";
inline const char* const empty_folder = "empty_folder";
inline const char* const unreadable = "unreadable";    // gone or unreadable when its turn came
inline const char* const judge_error = "judge_error";  // the problem's own files failed, or the judge did
inline const char* const task_failed = "task_failed";  // its Slurm task ended before judging it
}  // namespace grade_status

// A judgement's verdict (not a bad input, nor a failure of the judge or of Slurm): reusable.
bool judged_status(const std::string& status);

// accepted / wrong / failed, as the summary counts them; "" for inputs that are no submission.
std::string status_group(const std::string& status);

// "YYYY-MM-DD HH:MM:SS" in UTC, now.
std::string utc_now();

class gradebook {
public:
    // Creates the database and its table when new; throws naming `path` when it cannot.
    explicit gradebook(const std::filesystem::path& path);
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
};

}  // namespace gpujudge
