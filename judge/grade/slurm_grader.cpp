#include "grade/slurm_grader.hpp"

#include "base/file_text.hpp"
#include "base/hex_text.hpp"
#include "base/json_text.hpp"
#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"
#include "process/child_process.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace gpujudge {

namespace {

using json = nlohmann::json;

// A word for sh: single-quoted, its own quotes closed and escaped.
std::string shell_word(const std::string& word) {
    std::string quoted = "'";
    for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

json read_json(const std::filesystem::path& path) {
    std::ifstream file(path);
    if (!file) throw usage_error(fmt::format("{}: cannot be read", path.string()));
    try {
        return json::parse(file);
    } catch (const json::exception& error) {
        throw usage_error(fmt::format("{}: not a grade's file: {}", path.string(), error.what()));
    }
}

void write_json(const std::filesystem::path& path, const json& value) {
    const auto temporary = path.string() + ".tmp";
    std::ofstream(temporary) << json_text(value, 2) << "\n";
    std::filesystem::rename(temporary, path);
}

std::filesystem::path new_job_dir(const std::filesystem::path& run_dir) {
    const auto slurm = run_dir / "slurm";
    std::filesystem::create_directories(slurm);
    for (int n = 1;; ++n) {
        const auto dir = slurm / fmt::format("job-{}", n);
        if (std::filesystem::create_directory(dir)) return dir;
    }
}

}  // namespace

// Names and paths travel as their bytes, hex: JSON text is UTF-8 (json_text replaces other bytes with
// U+FFFD), and a student folder's name need not be UTF-8 (a Latin-1 "jos\xe9" from a zip): the task
// must open the very file, and its row must be stored under the very name.
json manifest_of(const std::vector<grade_job>& jobs, int tasks, bool timed) {
    json entries = json::array();
    for (const auto& job : jobs)
        entries.push_back({{"file_hex", hex_of(job.entry.file)},
                           {"student_hex", hex_of(job.entry.student)},
                           {"problem_hex", hex_of(job.entry.problem)},
                           {"path_hex", hex_of(std::filesystem::absolute(job.entry.path).string())},
                           {"source_hash", job.source_hash},
                           {"spec_hash", job.spec_hash},
                           {"file_hash", job.file_hash}});
    return {{"tasks", tasks}, {"timed", timed}, {"entries", entries}};
}

std::vector<grade_job> jobs_of(const json& manifest) {
    // A manifest of an earlier version (a job submitted before an upgrade) names them as text.
    const auto bytes = [](const json& entry, const std::string& name) {
        return entry.contains(name + "_hex") ? from_hex(entry.at(name + "_hex").get<std::string>())
                                             : entry.at(name).get<std::string>();
    };
    std::vector<grade_job> jobs;
    for (const auto& e : manifest.at("entries")) {
        grade_job job;
        job.entry.file = bytes(e, "file");
        job.entry.student = bytes(e, "student");
        job.entry.problem = bytes(e, "problem");
        job.entry.path = bytes(e, "path");
        job.source_hash = e.at("source_hash").get<std::string>();
        job.spec_hash = e.at("spec_hash").get<std::string>();
        job.file_hash = e.value("file_hash", "");  // none in an earlier version's: not checked
        jobs.push_back(std::move(job));
    }
    return jobs;
}

namespace {

std::vector<std::string> sbatch_argv(const std::filesystem::path& dir, int tasks, const slurm_settings& settings) {
    std::vector<std::string> argv{"sbatch", "--parsable", fmt::format("--array=0-{}", tasks - 1),
                                  "--job-name=gpujudge-grade", "--output=" + (dir / "task-%a.out").string()};
    if (settings.gpu_per_task) argv.push_back("--gres=gpu:1");
    if (!settings.partition.empty()) argv.push_back("--partition=" + settings.partition);
    if (!settings.time.empty()) argv.push_back("--time=" + settings.time);
    if (!settings.account.empty()) argv.push_back("--account=" + settings.account);
    argv.insert(argv.end(), settings.extra.begin(), settings.extra.end());
    argv.push_back((dir / "task.sh").string());
    return argv;
}

void write_task_script(const std::filesystem::path& dir, const slurm_settings& settings) {
    std::vector<std::string> words;
    for (const auto& word : settings.task_command) words.push_back(shell_word(word));
    for (const std::string& word : std::vector<std::string>{"grade", "--task", (dir / "manifest.json").string()})
        words.push_back(shell_word(word));
    const auto script = dir / "task.sh";
    std::ofstream(script) << "#!/bin/sh\n# One task of a gpujudge grade: its slice of manifest.json.\nexec "
                          << fmt::format("{}", fmt::join(words, " ")) << "\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
}

const std::set<std::string> kActiveStates{"PENDING",   "RUNNING",   "CONFIGURING",  "COMPLETING",
                                          "SUSPENDED", "REQUEUED",  "REQUEUE_HOLD", "RESIZING",
                                          "SIGNALING", "STAGE_OUT", "REQUEUE_FED",  "RESV_DEL_HOLD"};

// Each task's state as squeue knows it (while Slurm keeps the job), else as sacct does.
std::map<int, std::string> task_states(const std::string& job_id, int tasks) {
    std::map<int, std::string> states;
    const auto parse = [&](const std::string& text, char separator, bool sacct) {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            const auto bar = line.find('|');
            if (bar == std::string::npos) continue;
            std::string task = line.substr(0, bar), state = line.substr(bar + 1);
            if (sacct) {  // "123_4|CANCELLED by 0"
                const auto under = task.find(separator);
                if (under == std::string::npos) continue;
                task = task.substr(under + 1);
            }
            state = state.substr(0, state.find(' '));
            if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos) continue;
            states[std::stoi(task)] = state;
        }
    };
    const auto queue =
        run_command({"squeue", "-h", "-r", "-t", "all", "-j", job_id, "-o", "%K|%T"}, std::chrono::seconds(60));
    if (queue.exit.code == 0 && !queue.exit.signaled) parse(queue.output, '_', false);
    bool all_known = true;
    for (int t = 0; t < tasks; ++t) all_known = all_known && states.count(t);
    if (all_known) return states;  // else sacct, where Slurm keeps accounting, knows how the others ended
    const auto accounting =
        run_command({"sacct", "-n", "-P", "-X", "-j", job_id, "-o", "JobID,State"}, std::chrono::seconds(60));
    std::map<int, std::string> queued = states;
    if (accounting.exit.code == 0 && !accounting.exit.signaled) parse(accounting.output, '_', true);
    for (const auto& [task, state] : queued) states[task] = state;  // squeue's word is the newer
    return states;
}

std::filesystem::path task_db(const std::filesystem::path& job_dir, int task) {
    return job_dir / fmt::format("task-{}.db", task);
}

std::filesystem::path done_marker(const std::filesystem::path& job_dir, int task) {
    return job_dir / fmt::format("task-{}.done", task);
}

std::size_t rows_done(const std::filesystem::path& job_dir, int tasks) {
    std::size_t done = 0;
    for (int t = 0; t < tasks; ++t) {
        if (!std::filesystem::exists(task_db(job_dir, t))) continue;
        try {
            done += gradebook(task_db(job_dir, t)).rows().size();
        } catch (const std::exception&) {  // being written: counted next time
        }
    }
    return done;
}

void show_progress(const std::filesystem::path& job_dir, const json& manifest, const std::map<int, std::string>& states,
                   std::chrono::steady_clock::time_point start, const std::string& job_id) {
    const std::size_t total = manifest.at("entries").size();
    const std::size_t done = rows_done(job_dir, manifest.at("tasks").get<int>());
    std::map<std::string, int> counts;
    for (const auto& [task, state] : states) ++counts[state];
    std::string tasks;
    for (const auto& [state, n] : counts) tasks += fmt::format(" {} {}", n, state);
    const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60;
    const double rate = minutes > 0 ? done / minutes : 0;
    std::string line = fmt::format("grade: {}/{} · {:.1f}/min", done, total, rate);
    if (rate > 0 && done < total) line += " · ETA " + short_duration((total - done) / rate * 60);
    fmt::print(stderr, "\r\033[K{} · slurm job {}:{}", line, job_id, tasks);
    std::fflush(stderr);
}

}  // namespace

std::string from_hex(const std::string& hex) {
    auto bytes = bytes_of_hex(hex);
    if (!bytes) throw usage_error(fmt::format("'{}' is not hex: not a grade's manifest", hex));
    return std::move(*bytes);
}

std::filesystem::path submit_array(const std::filesystem::path& run_dir, const std::vector<grade_job>& jobs,
                                   const slurm_settings& settings) {
    if (!find_program("sbatch"))
        throw environment_error("sbatch not found on PATH: --slurm submits through Slurm's own commands");
    const int wanted = settings.tasks > 0 ? settings.tasks : std::min<int>(64, (static_cast<int>(jobs.size()) + 7) / 8);
    const int tasks = std::max(1, std::min<int>(wanted, static_cast<int>(jobs.size())));
    const auto dir = new_job_dir(run_dir);
    write_json(dir / "manifest.json", manifest_of(jobs, tasks, settings.timed));
    write_task_script(dir, settings);
    const auto submitted = run_command(sbatch_argv(dir, tasks, settings), std::chrono::seconds(120));
    std::string id = submitted.output.substr(0, submitted.output.find_first_of(";\n"));
    if (submitted.exit.code != 0 || submitted.exit.signaled || id.empty() ||
        id.find_first_not_of("0123456789") != std::string::npos) {
        // Never submitted: no folder for --collect to find. A refusal (a partition, a time limit or an
        // option after -- that Slurm does not take) is the cluster's answer, as sbatch words it.
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
        std::string said = submitted.output;
        while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
        throw environment_error(fmt::format("sbatch refused the job array ({}): {}", submitted.exit.describe(), said));
    }
    write_json(dir / "job.json", {{"job_id", id}, {"tasks", tasks}, {"submissions", jobs.size()}});
    write_json(run_dir / "slurm" / "latest.json", {{"job_id", id}, {"dir", dir.filename().string()}});
    return dir;
}

std::string job_id_of(const std::filesystem::path& job_dir) {
    return read_json(job_dir / "job.json").at("job_id").get<std::string>();
}

std::optional<std::filesystem::path> latest_job(const std::filesystem::path& run_dir) {
    const auto latest = run_dir / "slurm" / "latest.json";
    if (!std::filesystem::exists(latest)) return std::nullopt;
    return run_dir / "slurm" / read_json(latest).at("dir").get<std::string>();
}

void follow_job(const std::filesystem::path& job_dir, bool progress_line) {
    const json manifest = read_json(job_dir / "manifest.json");
    const int tasks = manifest.at("tasks").get<int>();
    const std::string job_id = job_id_of(job_dir);
    const auto start = std::chrono::steady_clock::now();
    for (int silent = 0; silent < 30;) {
        const auto states = task_states(job_id, tasks);
        bool active = false, all_done = true;
        for (const auto& [task, state] : states) active = active || kActiveStates.count(state);
        for (int t = 0; t < tasks; ++t) all_done = all_done && std::filesystem::exists(done_marker(job_dir, t));
        if (progress_line) show_progress(job_dir, manifest, states, start, job_id);
        if (all_done || (!states.empty() && !active)) break;
        silent = states.empty() ? silent + 1 : 0;  // Slurm knows nothing of it: not forever
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (progress_line) fmt::print(stderr, "\n");
}

// Where a failed task's output is and what it said last (Slurm's "CANCELLED ... DUE TO TIME LIMIT", a
// crash of the node's gpujudge): the first thing staff look at.
std::string task_output_note(const std::filesystem::path& out) {
    const auto text = read_file_text(out);
    if (!text) return fmt::format("it left no output ({})", out.string());
    std::string last;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    while (!last.empty() && (last.back() == '\r' || last.back() == ' ')) last.pop_back();
    if (last.size() > 200) last = last.substr(0, 200) + "...";
    return last.empty() ? fmt::format("its output is empty ({})", out.string())
                        : fmt::format("its output ends: {} ({})", last, out.string());
}

collected_job collect_job(const std::filesystem::path& job_dir, gradebook& book) {
    const json manifest = read_json(job_dir / "manifest.json");
    const int tasks = manifest.at("tasks").get<int>();
    const std::vector<grade_job> jobs = jobs_of(manifest);
    const std::string job_id = job_id_of(job_dir);
    const auto states = task_states(job_id, tasks);
    collected_job collected;
    std::vector<grade_row> judged_rows;
    for (int t = 0; t < tasks; ++t) {
        std::map<std::string, grade_row> judged;
        if (std::filesystem::exists(task_db(job_dir, t)))
            for (auto& row : gradebook(task_db(job_dir, t)).rows()) judged[row.file] = row;
        const std::string state = states.count(t) ? states.at(t) : "left the queue (Slurm keeps no record: cancelled?)";
        for (std::size_t i = static_cast<std::size_t>(t); i < jobs.size(); i += static_cast<std::size_t>(tasks)) {
            const grade_job& job = jobs[i];
            if (judged.count(job.entry.file)) {
                book.store(with_kept_times(book, judged.at(job.entry.file)));
                judged_rows.push_back(judged.at(job.entry.file));
                continue;
            }
            grade_row row;
            row.file = job.entry.file;
            row.student = job.entry.student;
            row.problem = job.entry.problem;
            row.status = grade_status::task_failed;
            row.source_hash = job.source_hash;
            row.spec_hash = job.spec_hash;
            row.judged_at = utc_now();
            row.reason = fmt::format("Slurm task {}_{} {} before judging it; {} (--retry-failed judges it again)",
                                     job_id, t, state, task_output_note(job_dir / fmt::format("task-{}.out", t)));
            book.store(row);
            ++collected.failed;
        }
    }
    collected.broken = invalid_problems_of(judged_rows);
    return collected;
}

std::filesystem::path class_folder_of(const grade_job& job) {
    const std::string path = job.entry.path.string();
    const std::string tail = "/" + job.entry.file;
    if (path.size() <= tail.size() || path.compare(path.size() - tail.size(), tail.size(), tail) != 0) return {};
    return path.substr(0, path.size() - tail.size());
}

void run_task(const std::filesystem::path& manifest_path, const judge_context& context) {
    const char* index = std::getenv("SLURM_ARRAY_TASK_ID");
    if (!index || !*index) throw usage_error("grade --task runs inside a Slurm array task ($SLURM_ARRAY_TASK_ID)");
    const int task = std::atoi(index);
    const json manifest = read_json(manifest_path);
    const std::vector<grade_job> all = jobs_of(manifest);
    judge_context hiding = context;
    const auto run_dir = manifest_path.parent_path().parent_path().parent_path();  // <run>/slurm/job-<n>
    hide_grade_folders(hiding, all.empty() ? std::filesystem::path() : class_folder_of(all.front()), run_dir);
    const int tasks = manifest.at("tasks").get<int>();
    const auto job_dir = manifest_path.parent_path();
    gradebook mine(task_db(job_dir, task));
    std::vector<grade_job> slice;
    std::map<std::string, problem_spec> specs;
    for (std::size_t i = static_cast<std::size_t>(task); i < all.size(); i += static_cast<std::size_t>(tasks)) {
        const auto done = mine.row(all[i].entry.file);  // a requeued task goes on where it stopped
        if (done && judged_status(done->status)) continue;
        if (!specs.count(all[i].entry.problem))
            specs.emplace(all[i].entry.problem, load_problem(catalog_problem_dir(context.home, all[i].entry.problem)));
        slice.push_back(all[i]);
    }
    local_settings settings;
    // Slurm's choice of GPU for this task, which the runners inherit; its number names it in the rows
    // where it is one (a UUID or a MIG device is left unnamed).
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    settings.gpus = {gpu_number(visible ? visible : "").value_or(-1)};
    settings.select_gpu = false;
    if (context.runner.backend == runner_backend::host) settings.gpu_names = {"host"};
    settings.timed = manifest.at("timed").get<bool>();
    settings.judge_history = job_dir.parent_path().parent_path() / "judge.db";
    grade_locally(slice, specs, hiding, settings, [&](const grade_row& row) { mine.store(row); });
    std::ofstream(done_marker(job_dir, task)) << "done\n";
}

}  // namespace gpujudge
