#pragma once
// A grade's run folder belongs to one class folder, one home's problems and one gpujudge at a time: a
// second grade into it at once would interleave their stores and reports, a grade of another class
// would drop the first class's rows as removed, and one with another home (a mistyped --home) would
// turn every judged row into unknown_problem.
#include <filesystem>

namespace gpujudge {

class run_folder_claim {
public:
    // Takes `run` (made when missing) for grading `class_dir` with the problems of `home`, or, with both
    // empty, for collecting a Slurm job into it. Throws usage_error when another gpujudge holds it, or
    // when it holds the grade of another class folder or home (noted in <run>/class-folder and <run>/home).
    run_folder_claim(const std::filesystem::path& run, const std::filesystem::path& class_dir,
                     const std::filesystem::path& home);
    ~run_folder_claim();
    run_folder_claim(run_folder_claim&& other) noexcept;
    run_folder_claim& operator=(run_folder_claim&&) = delete;
    run_folder_claim(const run_folder_claim&) = delete;
    run_folder_claim& operator=(const run_folder_claim&) = delete;

private:
    int fd_ = -1;  // <run>/.lock, flock'd for as long as the claim lives
};

}  // namespace gpujudge
