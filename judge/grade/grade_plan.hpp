#pragma once
// What a grade has to do: the class folder scanned against the gradebook. Bad inputs become rows
// at once; a source judged before on the same problem files and GPU keeps (or lends) its row;
// the rest is to judge.
#include "grade/grade_reports.hpp"
#include "grade/gradebook.hpp"
#include "grade/local_grader.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gpujudge {

struct plan_request {
    std::filesystem::path class_dir;
    std::filesystem::path run_dir;
    std::filesystem::path home;
    bool host_backend = false;
    bool rejudge = false;        // judge everything again
    bool retry_failed = false;   // judge only what a failed Slurm task (or the judge) left unjudged
    bool timed = true;           // with timed runs: an accepted row judged without them is judged again
    std::set<std::string> gpus;  // the GPU models the judging runs on; empty: any seen before
    // --no-sandbox: its rows are keyed apart, so that a sandboxed grade judges them again (code that ran
    // unconfined could have written the gradebook itself).
    bool unconfined = false;
};

struct grade_plan {
    std::vector<grade_job> jobs;
    std::map<std::string, problem_spec> specs;  // of the jobs' problems
    int unchanged = 0;                          // judged before: nothing to do
    int reused = 0;                             // the same bytes judged under another name
    int to_time = 0;  // of the jobs: accepted before by a grade without timed runs (--no-bench)
    int not_submissions = 0;
    int removed = 0;                                 // rows of files and folders no longer in the class folder, dropped
    std::map<std::string, invalid_problem> invalid;  // by slug
};

// The problems' files, hashed: a judgement stands while they are the same.
std::string problem_files_hash(const std::filesystem::path& problem_dir);

// Scans the class folder, stores the rows known now (bad inputs, reused judgements) in `book`,
// drops the rows of files and folders the class folder no longer holds (removed, renamed: the
// gradebook is the class as it is now), and returns the jobs left to judge.
grade_plan plan_grade(const plan_request& request, gradebook& book);

}  // namespace gpujudge
