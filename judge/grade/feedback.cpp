#include "grade/feedback.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "grade/grade_reports.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace gpujudge {

namespace {

constexpr std::size_t kFeedbackLimit = 64 * 1024;  // diagnostics and output are cut before; this bounds the rest
constexpr std::size_t kLongestName = 200;          // of a feedback file's own name, under NAME_MAX

}  // namespace

std::string kept_feedback(const std::string& report) {
    if (report.size() <= kFeedbackLimit) return report;
    return report.substr(0, kFeedbackLimit) + "\n... (cut: the report went on)\n";
}

std::string lent_feedback(const grade_row& judged, const std::string& file) {
    std::string text = judged.feedback;
    if (judged.file.empty()) return text;
    for (std::size_t at = text.find(judged.file); at != std::string::npos;
         at = text.find(judged.file, at + file.size()))
        text.replace(at, judged.file.size(), file);
    return text;
}

std::string feedback_text(const grade_row& row) {
    if (!row.feedback.empty()) return row.feedback;
    std::string text = fmt::format("source   {}\n", printable_name(row.file));
    if (!row.problem.empty()) text = fmt::format("problem  {}\n", printable_name(row.problem)) + text;
    text += fmt::format("status: {}\n", row.status);
    if (!row.reason.empty()) text += fmt::format("  {}\n", printable_name(row.reason));
    return text;
}

std::optional<std::filesystem::path> feedback_file(const std::filesystem::path& run, const grade_row& row) {
    std::string key = row.file;
    while (!key.empty() && key.back() == '/') key.pop_back();  // an empty folder's row, "carol/"
    // A row of the class folder's own entries (an empty folder, a link, a loose file) in a folder of its
    // name, as each student's files: "kate.txt" beside a student folder "kate.txt" took its place.
    if (key.find('/') == std::string::npos) key += "/" + key;
    std::filesystem::path relative = std::filesystem::path(key + ".txt").lexically_normal();
    if (key.empty() || relative.is_absolute() || *relative.begin() == "..") return std::nullopt;
    // A name near NAME_MAX (255 bytes) leaves no room for ".txt" and the write's temporary suffix.
    if (relative.filename().string().size() > kLongestName)
        relative.replace_filename(content_hash({key}).substr(0, 16) + ".txt");
    return run / "feedback" / relative;
}

void write_feedback(const std::filesystem::path& run, const std::vector<grade_row>& rows) {
    std::filesystem::remove_all(run / "feedback");
    for (const auto& row : rows)
        if (const auto file = feedback_file(run, row)) try {
                std::filesystem::create_directories(file->parent_path());
                write_file_atomically(*file, feedback_text(row));
            } catch (const std::exception& error) {  // a write that fails (a name too odd, a full disk): that one
                spdlog::warn("no feedback for {}: {}", printable_name(row.file), error.what());
            }
}

}  // namespace gpujudge
