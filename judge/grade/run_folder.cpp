#include "grade/run_folder.hpp"

#include "base/file_text.hpp"
#include "base/user_errors.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace gpujudge {

namespace {

// The pid the holder wrote into the lock file, for the message; "?" when it cannot be read.
std::string holder_of(const std::filesystem::path& lock) {
    const auto text = read_file_text(lock);
    return text && !text->empty() ? *text : "?";
}

// The folder the run was first graded with, noted in <run>/<name>; another is refused, naming both.
void check_note(const std::filesystem::path& run, const std::string& name, const std::filesystem::path& folder) {
    const auto note = run / name;
    const std::string mine = std::filesystem::weakly_canonical(folder).string();
    const auto held = read_file_text(note);
    if (!held || held->empty()) {
        std::ofstream(note, std::ios::trunc) << mine;
        return;
    }
    if (*held == mine) return;
    if (name == "home")
        throw usage_error(
            fmt::format("grade: {} was graded with the problems of {}, not {}: grade with --home {}, or into another "
                        "folder (--out)",
                        run.string(), *held, mine, *held));
    throw usage_error(fmt::format(
        "grade: {} holds the grade of the class folder {}, not {}: grade into another folder (--out), or remove "
        "{} if that class folder was moved here",
        run.string(), *held, mine, note.string()));
}

}  // namespace

run_folder_claim::run_folder_claim(const std::filesystem::path& run, const std::filesystem::path& class_dir,
                                   const std::filesystem::path& home) {
    std::error_code error;
    // A folder of other files (`--out notes`) would have its summary.md and leaderboard.md overwritten.
    if (!class_dir.empty() && std::filesystem::is_directory(run, error) && !std::filesystem::is_empty(run, error) &&
        !std::filesystem::exists(run / "gradebook.db", error))
        throw usage_error(
            fmt::format("grade: {} holds other files and no gradebook: give --out a new folder, or a "
                        "grade's run folder",
                        run.string()));
    if (!class_dir.empty()) std::filesystem::create_directories(run, error);
    const auto lock = run / ".lock";
    fd_ = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0 && class_dir.empty() && !std::filesystem::is_directory(run))
        throw usage_error(fmt::format("grade: {}: no such run folder", run.string()));
    if (fd_ < 0) throw environment_error(fmt::format("grade: {}: cannot be made or written", run.string()));
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        close(fd_);
        fd_ = -1;
        throw usage_error(fmt::format(
            "grade: another gpujudge (pid {}) is grading into {}: wait for it to end, or grade into another "
            "folder (--out)",
            holder_of(lock), run.string()));
    }
    const std::string pid = std::to_string(getpid());
    const bool noted = ftruncate(fd_, 0) == 0 && write(fd_, pid.data(), pid.size()) == ssize_t(pid.size());
    (void)noted;  // the pid only names the holder in another's message
    if (!class_dir.empty()) check_note(run, "class-folder", class_dir);
    if (!home.empty()) check_note(run, "home", home);
}

run_folder_claim::~run_folder_claim() {
    if (fd_ >= 0) close(fd_);  // closing the last descriptor releases the flock
}

run_folder_claim::run_folder_claim(run_folder_claim&& other) noexcept : fd_(other.fd_) {
    other.fd_ = -1;
}

}  // namespace gpujudge
