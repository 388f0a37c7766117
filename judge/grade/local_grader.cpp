#include "grade/local_grader.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/problem_error.hpp"
#include "base/user_errors.hpp"
#include "bench/timing.hpp"
#include "compile/error_reason.hpp"
#include "compile/include_scan.hpp"
#include "grade/feedback.hpp"
#include "grade/grade_reports.hpp"
#include "judging/modes.hpp"
#include "judging/submission.hpp"
#include "report/judgement.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <thread>

namespace gpujudge {

void hide_grade_folders(judge_context& context, const std::filesystem::path& class_dir,
                        const std::filesystem::path& run_dir) {
    context.compiler.hash_submission = true;  // what each compile judged, to compare with the scan's hash
    for (const auto& folder : {class_dir, run_dir, context.home / "problems", context.home / "solutions"}) {
        if (folder.empty()) continue;
        const auto absolute = std::filesystem::absolute(folder).lexically_normal();
        context.compiler.others.push_back(absolute);
        context.runner.hidden.push_back(absolute);
    }
}

std::pair<std::string, std::string> submission_hashes(const std::filesystem::path& source) {
    const auto text = read_file_text(source);
    if (!text) return {};
    const std::string own = content_hash({*text});
    if (is_python_source(source)) return {own, own};  // one file: its `#include` comments read nothing
    return {submission_hash(source, *text, scan_includes(source, *text)), own};
}

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point start) {
    return std::chrono::duration<double>(clock_type::now() - start).count();
}

struct compiled_job {
    std::size_t index = 0;
    std::optional<compile_result> compile;  // none: the compile itself threw (see failure)
    std::string failure;
    std::exception_ptr machine_failure;  // what threw was the machine's (see grade_stop), not the file's
};

// The first machine error of a grade, which stops every thread and is thrown to its caller; and the
// problems whose reference failed while judging, whose other submissions are not judged.
class grade_stop {
public:
    void stop(std::exception_ptr error) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::move(error);
        stopped_ = true;
    }
    bool stopped() const { return stopped_; }
    std::exception_ptr error() const { return error_; }
    void break_problem(const std::string& slug, const std::string& why) {
        std::lock_guard<std::mutex> lock(mutex_);
        broken_.emplace(slug, why);
    }
    std::optional<std::string> broken(const std::string& slug) const {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto it = broken_.find(slug);
        return it == broken_.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    std::map<std::string, std::string> broken_problems() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return broken_;
    }

private:
    mutable std::mutex mutex_;
    std::atomic<bool> stopped_{false};
    std::exception_ptr error_;
    std::map<std::string, std::string> broken_;
};

// Compiled submissions waiting for a GPU, in the order their compiles finished.
class ready_queue {
public:
    void push(compiled_job job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            jobs_.push_back(std::move(job));
        }
        ready_.notify_one();
    }
    void close() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closed_ = true;
        }
        ready_.notify_all();
    }
    std::optional<compiled_job> pop() {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [&] { return closed_ || !jobs_.empty(); });
        if (jobs_.empty()) return std::nullopt;
        compiled_job job = std::move(jobs_.front());
        jobs_.pop_front();
        return job;
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<compiled_job> jobs_;
    bool closed_ = false;
};

// The one progress line: done/total, rate, ETA, and what each GPU is on.
class progress_display {
public:
    progress_display(bool shown, std::size_t total, const std::vector<int>& gpus)
        : shown_(shown), total_(total), gpus_(gpus), current_(gpus.size(), "idle") {}
    void working(std::size_t worker, const std::string& what) {
        std::lock_guard<std::mutex> lock(mutex_);
        current_[worker] = what;
        print();
    }
    void finished(std::size_t worker) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++done_;
        current_[worker] = "idle";
        print();
    }
    ~progress_display() {
        if (shown_ && total_) fmt::print(stderr, "\n");
    }

private:
    void print() {
        if (!shown_) return;
        const double minutes = since(start_) / 60;
        const double rate = minutes > 0 ? done_ / minutes : 0;
        std::string line = fmt::format("grade: {}/{} · {:.1f}/min", done_, total_, rate);
        if (rate > 0 && done_ < total_) line += " · ETA " + short_duration((total_ - done_) / rate * 60);
        for (std::size_t i = 0; i < current_.size(); ++i)
            line += fmt::format(" · {}: {}", gpu_label(gpus_[i]), current_[i]);
        fmt::print(stderr, "\r\033[K{}", line);
        std::fflush(stderr);
    }
    bool shown_;
    std::size_t total_;
    std::vector<int> gpus_;
    std::size_t done_ = 0;
    std::vector<std::string> current_;
    std::mutex mutex_;
    clock_type::time_point start_ = clock_type::now();
};

// nvcc's architecture: the one the judge last saw (submission.cpp keeps it in the cache), else its
// default; a wrong guess costs the worker one more compile, never a wrong library.
compiler_settings precompile_settings(const judge_context& base) {
    compiler_settings settings = base.compiler;
    if (const std::string arch = last_seen_arch(settings); !arch.empty()) settings.arch = arch;
    return settings;
}

compiled_job compile_one(std::size_t index, const grade_job& job, const problem_spec& spec,
                         const compiler_settings& compiler, bool host_backend) {
    compiled_job done;
    done.index = index;
    try {
        done.compile = host_backend ? compile_host(spec, job.entry.path, "solve", compiler)
                                    : compile_solution(spec, job.entry.path, compiler);
    } catch (const std::exception& error) {
        done.failure = error.what();
        if (machine_error(error)) done.machine_failure = std::current_exception();
    }
    return done;
}

// A row for what never reached judge_submission: a compile error, a vanished file, a failed compile.
grade_row early_row(const grade_job& job, const problem_spec& spec, const std::string& status,
                    const std::string& reason) {
    grade_row row;
    row.file = job.entry.file;
    row.student = job.entry.student;
    row.problem = job.entry.problem;
    row.status = status;
    row.total = static_cast<int>(spec.tests.size());
    row.source_hash = job.source_hash;
    row.spec_hash = job.spec_hash;
    row.judged_at = utc_now();
    row.reason = reason;
    return row;
}

struct worker_setup {
    const std::vector<grade_job>& jobs;
    const std::map<std::string, problem_spec>& specs;
    const local_settings& settings;
    const row_sink& sink;
    ready_queue& queue;
    progress_display& progress;
    grade_stop& stop;
};

grade_row judged_row(const compiled_job& item, const worker_setup& setup, judge_context& context, double& busy_s);

// Judges one compiled job; the row says what became of it, whatever that was, on which GPU.
grade_row judge_one(const compiled_job& item, const worker_setup& setup, judge_context& context, double& busy_s,
                    std::string& gpu, int gpu_index) {
    grade_row row = judged_row(item, setup, context, busy_s);
    if (row.gpu.empty())
        row.gpu = gpu;
    else
        gpu = row.gpu;
    if (gpu_index >= 0) row.gpu_index = gpu_index;
    return row;
}

// Whether the bytes compiled are not those the scan hashed: the file or a header it includes was rewritten
// (or swapped for a link) during the grade, or the file is gone (no bytes read), and its row would name
// what was not judged: a file moved away during its compile was a compile_error kept under the scan's
// hash, which a classmate's copy of the same bytes then took.
bool changed_since_scan(const grade_job& job, const compile_result& compiled) {
    if (!job.file_hash.empty() && compiled.source_hash != job.file_hash) return true;
    return !compiled.source_refused && !job.source_hash.empty() && compiled.submission_hash != job.source_hash;
}

grade_row judged_row(const compiled_job& item, const worker_setup& setup, judge_context& context, double& busy_s) {
    const grade_job& job = setup.jobs[item.index];
    const problem_spec& spec = setup.specs.at(job.entry.problem);
    const bool host = context.runner.backend == runner_backend::host;
    const auto changed = [&] {
        return early_row(job, spec, grade_status::unreadable,
                         "the file, or a header it includes, changed or disappeared during the grade");
    };
    if (item.machine_failure) std::rethrow_exception(item.machine_failure);
    if (const auto broken = setup.stop.broken(job.entry.problem))
        return early_row(job, spec, grade_status::invalid_problem, invalid_problem_reason(job.entry.problem, *broken));
    if (!item.compile) return early_row(job, spec, grade_status::judge_error, item.failure);
    if (changed_since_scan(job, *item.compile)) return changed();
    if (!item.compile->ok) {
        grade_row row = early_row(job, spec, "compile_error", compile_error_reason(item.compile->diagnostics));
        // A judgement of where the file lies, not of its bytes: no hash, so no copy elsewhere takes it.
        if (item.compile->path_refused) row.source_hash.clear();
        judgement refused;
        refused.compile = *item.compile;
        refused.overall = verdict::compile_error;
        row.feedback = kept_feedback(submission_text(spec, job.entry.file, refused));
        return row;
    }
    const auto start = clock_type::now();
    try {
        judge_options options = submit_options(spec, {}, setup.settings.timed);
        options.keep_attempt = false;  // a student's attempt is not the grader's
        options.origin = "grade";
        options.with_torch = false;  // the gradebook has × baseline alone: no Python runner per problem
        const judgement result = judge_submission(spec, job.entry.path, options, context);
        busy_s += since(start);
        if (changed_since_scan(job, result.compile)) return changed();
        grade_row row = row_of(job, spec, result, host);
        row.wall_s = since(start);
        row.feedback = kept_feedback(submission_text(spec, job.entry.file, result));
        return row;
    } catch (const problem_error& error) {  // its reference failed: the problem's fault, not the student's
        busy_s += since(start);
        setup.stop.break_problem(job.entry.problem, error.what());
        return early_row(job, spec, grade_status::invalid_problem,
                         invalid_problem_reason(job.entry.problem, error.what()));
    } catch (const std::exception& error) {
        busy_s += since(start);
        if (machine_error(error)) throw;
        return early_row(job, spec, grade_status::judge_error, error.what());
    }
}

void run_worker(std::size_t worker, const worker_setup& setup, const judge_context& base, double& busy_s) {
    judge_context context = base;
    context.timings = {};
    context.progress = {};
    context.results = nullptr;
    std::optional<history> own;
    if (!setup.settings.judge_history.empty()) {
        try {
            own.emplace(setup.settings.judge_history);
            context.results = &*own;
        } catch (const std::exception& error) {
            spdlog::warn("{}; ceilings and baselines are measured each time", error.what());
        }
    }
    const int gpu_index = setup.settings.gpus[worker];
    context.runner = worker_runner(base.runner, gpu_index, setup.settings.select_gpu);
    std::string gpu = worker < setup.settings.gpu_names.size() ? setup.settings.gpu_names[worker] : "";
    try {
        for (auto item = setup.queue.pop(); item && !setup.stop.stopped(); item = setup.queue.pop()) {
            setup.progress.working(worker, printable_name(setup.jobs[item->index].entry.file));
            const grade_row row = judge_one(*item, setup, context, busy_s, gpu, gpu_index);
            setup.sink(row);
            setup.progress.finished(worker);
        }
    } catch (...) {
        setup.stop.stop(std::current_exception());
        setup.queue.close();
    }
}

}  // namespace

std::optional<int> gpu_number(const std::string& text) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoi(text);
}

std::string gpu_label(int gpu) {
    return gpu >= 0 ? fmt::format("gpu{}", gpu) : "gpu";
}

runner_settings worker_runner(const runner_settings& base, int gpu, bool select) {
    runner_settings settings = base;
    if (select && gpu >= 0) settings.gpu = gpu;
    return settings;
}

std::string short_duration(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    if (s < 60) return fmt::format("{}s", s);
    if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
    return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
}

grade_row row_of(const grade_job& job, const problem_spec& spec, const judgement& result, bool host_backend) {
    grade_row row = early_row(job, spec, to_string(result.overall), result.reason);
    if (!result.compile.ok) row.reason = compile_error_reason(result.compile.diagnostics);
    row.total = static_cast<int>(result.tests.size());
    row.passed = static_cast<int>(std::count_if(result.tests.begin(), result.tests.end(),
                                                [](const test_report& t) { return t.result == verdict::accepted; }));
    row.gpu = result.device ? result.device->name : host_backend ? "host" : "";
    const bench_entry* mine = submission_entry(result);
    const auto headline = headline_test(spec);
    if (result.bench && result.bench->peak_gbps > 0) row.ceiling_gbps = result.bench->peak_gbps;
    if (!mine || !headline || result.overall != verdict::accepted) return row;
    for (const auto& f : mine->figures)
        if (f.test == *headline && f.result == verdict::accepted) {
            row.median_us = f.median_us;
            row.gbps = f.gbps;
            if (f.percent_of_peak > 0) row.percent_of_ceiling = f.percent_of_peak;
            if (f.speedup > 0) row.speedup = f.speedup;
        }
    return row;
}

grade_stats grade_locally(const std::vector<grade_job>& jobs, const std::map<std::string, problem_spec>& specs,
                          const judge_context& base, const local_settings& settings, const row_sink& sink) {
    grade_stats stats;
    const auto start = clock_type::now();
    const bool host = base.runner.backend == runner_backend::host;
    const compiler_settings compiler = precompile_settings(base);
    ready_queue queue;
    progress_display progress(settings.progress_line, jobs.size(), settings.gpus);
    std::mutex sink_mutex;
    const row_sink locked_sink = [&](const grade_row& row) {
        std::lock_guard<std::mutex> lock(sink_mutex);
        sink(row);
    };
    grade_stop stop;
    const worker_setup setup{jobs, specs, settings, locked_sink, queue, progress, stop};
    stats.worker_busy_s.assign(settings.gpus.size(), 0);
    std::vector<std::thread> workers;
    for (std::size_t w = 0; w < settings.gpus.size(); ++w)
        workers.emplace_back(run_worker, w, std::cref(setup), std::cref(base), std::ref(stats.worker_busy_s[w]));
    // The compile pool: each slot (a core, as memory allows) takes the next submission, in the scan's order.
    std::atomic<std::size_t> next{0};
    std::mutex compile_mutex;
    std::vector<std::thread> compilers;
    const unsigned slots = compiles_at_once(compiler.limits);
    for (unsigned c = 0; c < std::min<std::size_t>(slots, jobs.size()); ++c)
        compilers.emplace_back([&] {
            for (std::size_t i = next++; i < jobs.size() && !stop.stopped(); i = next++) {
                const auto began = clock_type::now();
                compiled_job done = compile_one(i, jobs[i], specs.at(jobs[i].entry.problem), compiler, host);
                {
                    std::lock_guard<std::mutex> lock(compile_mutex);
                    stats.compile_s += since(began);
                }
                queue.push(std::move(done));
            }
        });
    for (auto& thread : compilers) thread.join();
    queue.close();
    for (auto& thread : workers) thread.join();
    if (stop.error()) std::rethrow_exception(stop.error());  // what was judged before it is in the gradebook
    stats.judged = static_cast<int>(jobs.size());
    stats.wall_s = since(start);
    stats.broken_problems = stop.broken_problems();
    return stats;
}

}  // namespace gpujudge
