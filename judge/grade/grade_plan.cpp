#include "grade/grade_plan.hpp"

#include "base/content_hash.hpp"
#include "bench/timing.hpp"
#include "catalog/catalog.hpp"
#include "compile/compiler.hpp"
#include "grade/feedback.hpp"
#include "grade/grade_reports.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpujudge {

namespace {

std::set<std::string> problem_slugs(const std::filesystem::path& home) {
    std::set<std::string> slugs;
    for (const auto& dir : list_problems(home)) slugs.insert(dir.filename().string());
    return slugs;
}

grade_row bare_row(const class_entry& entry) {
    grade_row row;
    row.file = entry.file;
    row.student = entry.student;
    row.problem = entry.problem;
    row.status = entry.status;
    row.reason = entry.reason;
    row.judged_at = utc_now();
    return row;
}

// The problem's spec, loaded once; a problem that cannot load makes its rows invalid_problem, not the
// grade's end: the other problems are graded.
const problem_spec* spec_of(const plan_request& request, const std::string& slug, grade_plan& plan,
                            std::map<std::string, std::string>& refused) {
    if (plan.specs.count(slug)) return &plan.specs.at(slug);
    if (refused.count(slug)) return nullptr;
    try {
        return &plan.specs.emplace(slug, load_problem(catalog_problem_dir(request.home, slug))).first->second;
    } catch (const std::exception& error) {
        refused[slug] = error.what();
        return nullptr;
    }
}

std::optional<grade_row> judged_before(const gradebook& book, const plan_request& request, const grade_job& job) {
    std::set<std::string> gpus = request.gpus;
    if (gpus.empty())
        for (const auto& gpu : book.gpus()) gpus.insert(gpu);
    for (const auto& gpu : gpus)
        if (auto row = book.judged_like(job.source_hash, job.spec_hash, gpu)) return row;
    return std::nullopt;
}

// Decides one submission: to judge, unchanged, or reused from an identical source.
void plan_submission(const plan_request& request, gradebook& book, grade_job job, grade_plan& plan) {
    const auto mine = book.row(job.entry.file);
    if (request.retry_failed) {
        // What failed, and a file never judged (new since); the rest stands as it is.
        if (!mine || mine->status == grade_status::task_failed || mine->status == grade_status::judge_error ||
            mine->status == grade_status::invalid_problem)
            plan.jobs.push_back(std::move(job));
        else
            ++plan.unchanged;
        return;
    }
    // A file refused for where it lies takes no copy's judgement, as it lends none (local_grader.cpp);
    // a Python file is imported, never compiled, wherever it lies.
    const bool refused_for_path = !is_python_source(job.entry.path) && unusable_path(job.entry.path);
    const auto before = request.rejudge || refused_for_path ? std::nullopt : judged_before(book, request, job);
    if (!before) {
        plan.jobs.push_back(std::move(job));
        return;
    }
    // Accepted by a grade without timed runs (--no-bench), of a problem that has some: a timed grade
    // judges it again, so that it is timed and ranked.
    const auto untimed = [&](const grade_row& row) {
        return request.timed && row.status == "accepted" && !row.median_us &&
               headline_test(plan.specs.at(job.entry.problem));
    };
    if (untimed(*before)) {
        ++plan.to_time;
        plan.jobs.push_back(std::move(job));
        return;
    }
    if (mine && mine->source_hash == job.source_hash && mine->spec_hash == job.spec_hash &&
        judged_status(mine->status) && !untimed(*mine)) {
        ++plan.unchanged;
        return;
    }
    grade_row row = *before;  // the same bytes under another name: the same judgement
    row.feedback = lent_feedback(*before, job.entry.file);
    row.file = job.entry.file;
    row.student = job.entry.student;
    row.problem = job.entry.problem;
    book.store(row);
    ++plan.reused;
}

}  // namespace

std::string problem_files_hash(const std::filesystem::path& problem_dir) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (std::filesystem::recursive_directory_iterator it(problem_dir, error), end; !error && it != end;
         it.increment(error))
        if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    std::vector<std::string> parts;
    for (const auto& file : files) {
        parts.push_back(file.lexically_relative(problem_dir).string());
        parts.push_back(file_hash(file));
    }
    return content_hash(parts);
}

grade_plan plan_grade(const plan_request& request, gradebook& book) {
    grade_plan plan;
    std::map<std::string, std::string> refused;
    std::set<std::string> present;
    std::vector<std::string> unlisted;  // student folders that could not be listed: "bob/"
    for (auto& entry :
         scan_class(request.class_dir, problem_slugs(request.home), request.host_backend, request.run_dir)) {
        present.insert(entry.file);
        if (entry.status == grade_status::unreadable && entry.problem.empty()) unlisted.push_back(entry.file);
        if (!entry.status.empty()) {
            ++plan.not_submissions;
            if (!request.retry_failed) book.store(bare_row(entry));
            continue;
        }
        const problem_spec* spec = spec_of(request, entry.problem, plan, refused);
        const auto [source_hash, file_hash] = submission_hashes(entry.path);
        std::string spec_hash = spec ? problem_files_hash(spec->dir) : "";
        if (request.unconfined) spec_hash = content_hash({spec_hash, "judged without the sandbox"});
        grade_job job{entry, source_hash, spec_hash, file_hash};
        if (!spec) {
            auto& invalid = plan.invalid[entry.problem];
            invalid.error = refused.at(entry.problem);
            ++invalid.submissions;
            // A judgement of these bytes made before the problem broke (a maintainer mid-edit) stands: the
            // problem restored as it was, nothing is judged again.
            const auto mine = book.row(entry.file);
            if (mine && judged_status(mine->status) && !source_hash.empty() && mine->source_hash == source_hash) {
                ++invalid.kept;
                continue;
            }
            entry.status = grade_status::invalid_problem;
            entry.reason = invalid_problem_reason(entry.problem, invalid.error);
            book.store(bare_row(entry));
            continue;
        }
        if (job.source_hash.empty()) {
            entry.status = grade_status::unreadable;
            entry.reason = "the file cannot be read";
            if (!request.retry_failed) book.store(bare_row(entry));
            continue;
        }
        plan_submission(request, book, std::move(job), plan);
    }
    // After the plan: a renamed file's old row has lent its judgement to the new name.
    const auto in_unlisted = [&](const std::string& file) {
        return std::any_of(unlisted.begin(), unlisted.end(),
                           [&](const std::string& folder) { return file.rfind(folder, 0) == 0; });
    };
    for (const auto& row : book.rows())
        if (!present.count(row.file) && !in_unlisted(row.file)) {
            book.remove(row.file);
            ++plan.removed;
        }
    return plan;
}

}  // namespace gpujudge
