#include "grade/class_folder.hpp"

#include "base/nearest_name.hpp"
#include "base/user_errors.hpp"
#include "grade/gradebook.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace gpujudge {

namespace {

// A submission is a source file of a few KiB; past this it is refused unread.
constexpr std::uintmax_t kMaxSubmissionBytes = std::uintmax_t{4} << 20;

bool hidden(const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    return name.empty() || name.front() == '.';
}

// The visible entries of a folder, sorted by name, and `error` when it could not be listed whole (no
// permission, an NFS or I/O error): that is no empty folder, whose rows a grade would remove.
std::vector<std::filesystem::path> listing(const std::filesystem::path& dir, const std::filesystem::path& skip,
                                           std::error_code& error) {
    std::vector<std::filesystem::path> found;
    for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        std::error_code same_error;
        if (hidden(it->path()) || (!skip.empty() && std::filesystem::equivalent(it->path(), skip, same_error)))
            continue;
        found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

// A student's own header, which a submission includes: part of that submission, not one of its own.
bool is_header(const std::filesystem::path& path) {
    static const std::set<std::string> headers = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"};
    return headers.count(path.extension().string()) > 0;
}

class_entry entry_for(const std::filesystem::path& dir, const std::filesystem::path& path, const std::string& student,
                      const std::set<std::string>& problems, const std::vector<std::string>& extensions) {
    class_entry entry;
    entry.file = path.lexically_relative(dir).string();
    entry.student = student;
    entry.problem = path.stem().string();
    entry.path = path;
    const std::string ext = path.extension().string();
    std::error_code error;
    // A link would hand in a file that is not the student's: another student's, or one of the grader's own
    // (a compile error would quote it into the gradebook).
    if (std::filesystem::is_symlink(path, error)) {
        entry.status = grade_status::not_a_source;
        entry.problem.clear();
        entry.reason = "a symbolic link: submissions are files of their own";
    } else if (!std::filesystem::is_regular_file(path, error)) {
        entry.status = grade_status::not_a_source;
        entry.problem.clear();
        entry.reason =
            "not a file: a submission is a file in a student's folder named after its problem "
            "(alice/reduction.cu)";
    } else if (std::filesystem::file_size(path, error) > kMaxSubmissionBytes || error) {
        // Read whole to be hashed and compiled: a sparse file of many GiB would take the grade's memory.
        entry.status = grade_status::not_a_source;
        entry.problem.clear();
        entry.reason = fmt::format("larger than {} MiB: not a submission", kMaxSubmissionBytes >> 20);
    } else if (is_header(path)) {
        entry.status = grade_status::not_a_source;
        entry.problem.clear();
        entry.reason = "a header: judged as part of the submissions that include it";
    } else if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) {
        entry.status = grade_status::not_a_source;
        entry.problem.clear();
        const auto meant = nearest_name(ext, extensions);  // .CU: only the case is off
        entry.reason = fmt::format(
            "'{}' is not a source file ({}){}", path.filename().string(), fmt::join(extensions, ", "),
            meant && lower_case(ext) == *meant ? fmt::format(": rename it {}{}", path.stem().string(), *meant) : "");
    } else if (!problems.count(entry.problem)) {
        entry.status = grade_status::unknown_problem;
        const auto meant = nearest_name(entry.problem, {problems.begin(), problems.end()});
        entry.reason =
            fmt::format("no problem named '{}' ({}see gpujudge list)", entry.problem,
                        meant ? fmt::format("did you mean '{}'? rename it {}{}; ", *meant, *meant, ext) : "");
    }
    return entry;
}

}  // namespace

std::vector<std::string> source_extensions(bool host_backend) {
    if (host_backend) return {".cpp", ".py"};  // Python on the host: CPU tensors
    return {".cu", ".py"};
}

std::vector<class_entry> scan_class(const std::filesystem::path& dir, const std::set<std::string>& problems,
                                    bool host_backend, const std::filesystem::path& skip) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error))
        throw usage_error(fmt::format("{}: not a folder of student folders", dir.string()));
    const auto extensions = source_extensions(host_backend);
    std::vector<class_entry> entries;
    const auto students = listing(dir, skip, error);
    if (error)
        throw environment_error(fmt::format("grade: {}: the class folder cannot be listed ({}); nothing was changed",
                                            dir.string(), error.message()));
    for (const auto& student_dir : students) {
        const std::string student = student_dir.filename().string();
        if (std::filesystem::is_symlink(student_dir, error)) {
            entries.push_back({student, student, "", student_dir, grade_status::not_a_source,
                               "a symbolic link: student folders are folders of their own"});
            continue;
        }
        if (!std::filesystem::is_directory(student_dir, error)) {
            entries.push_back(
                {student, student, "", student_dir, grade_status::not_a_source, "a file outside any student folder"});
            continue;
        }
        const auto files = listing(student_dir, {}, error);
        if (error)
            entries.push_back({student + "/", student, "", student_dir, grade_status::unreadable,
                               fmt::format("the student folder cannot be listed ({}): its rows judged before are kept",
                                           error.message())});
        else if (files.empty())
            entries.push_back({student + "/", student, "", student_dir, grade_status::empty_folder,
                               "the student folder holds no submission"});
        for (const auto& file : files) entries.push_back(entry_for(dir, file, student, problems, extensions));
    }
    return entries;
}

}  // namespace gpujudge
