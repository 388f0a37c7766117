#pragma once
// Each file's feedback, for staff to hand back: <run>/feedback/<student>/<file>.txt holds what `submit`
// would have printed for it (every diagnostic, each test's verdict and message, its output, the timed
// runs), or, for a file never judged, its status and reason. Rewritten with the reports.
#include "grade/gradebook.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// A judgement's report as a row keeps it (grade_row::feedback), cut to a size a gradebook holds.
std::string kept_feedback(const std::string& report);

// The feedback of `judged` lent to `file`, the same bytes under another name: its report, naming `file`.
std::string lent_feedback(const grade_row& judged, const std::string& file);

// The text of a row's feedback file.
std::string feedback_text(const grade_row& row);

// Where a row's feedback goes: <run>/feedback/<file>.txt (an empty folder's: <student>.txt; a name too long
// for ".txt": a hash of it); none for a file key that would leave the folder.
std::optional<std::filesystem::path> feedback_file(const std::filesystem::path& run, const grade_row& row);

// Writes <run>/feedback/ anew from `rows`: a file each, nothing of rows no longer there. A file that cannot
// be written (its name taken by a folder of another row's) is a warning, never the grade's end.
void write_feedback(const std::filesystem::path& run, const std::vector<grade_row>& rows);

}  // namespace gpujudge
