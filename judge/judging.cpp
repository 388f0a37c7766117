#include "judging.hpp"

#include "problem_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

namespace gpujudge {

namespace {

using clock = std::chrono::steady_clock;

clock::time_point after(double seconds) {
    return clock::now() + std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

std::string explain_death(const child_exit& exit, bool in_call) {
    if (exit.timed_out)  // the channel closed, but the process went on
        return "the result channel closed while the process kept running: the submission closed or replaced the "
               "judge's file descriptor";
    const std::string where = in_call ? "during solve" : "while the harness checked the test";
    if (exit.signaled) return fmt::format("the process was killed by {} {}", exit.describe(), where);
    if (in_call)
        return fmt::format("solve ended the process ({}): a submission must return from solve, not call exit()",
                           exit.describe());
    return fmt::format("the process ended ({}) {}", exit.describe(), where);
}

constexpr const char* kForged =
    "the submission wrote into the judge's result channel (a line the runner did not seal); nothing it "
    "reported can be believed";

}  // namespace

// How a job ended: `done`, or why not, with the test it was on.
struct runner_session::job_end {
    enum class how { done, closed, timeout, forged, fatal, interrupted } kind = how::done;
    int test = -1;  // the test in progress, -1 between tests
    bool in_call = false;
    child_exit exit;
    std::string message;
};

std::vector<test_report> pending_reports(const problem_spec& spec, const std::vector<int>& tests) {
    std::vector<test_report> reports;
    for (const int index : tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        reports.push_back({index, test.name, test.kind, verdict::skipped, "", 0, std::nullopt});
    }
    return reports;
}

runner_session::runner_session(const problem_spec& spec, const runner_settings& settings)
    : spec_(spec), settings_(settings), work_("run"), interrupt_fd_(eventfd(0, EFD_CLOEXEC)) {
    process_ =
        std::make_unique<runner_process>(settings.runner_exe, settings.backend,
                                         std::filesystem::absolute(spec.dir).string(), work_.path(), settings.launcher);
    if (settings.backend == runner_backend::host) device_read_ = true;
}

runner_session::~runner_session() {
    stop(true);
    close(interrupt_fd_);
}

void runner_session::stop(bool kill) {
    if (!process_) return;
    process_->finish(kill);
    output_ += process_->output_tail(4096);
    process_.reset();
}

void runner_session::interrupt() {
    const std::uint64_t one = 1;
    if (write(interrupt_fd_, &one, sizeof one) < 0) spdlog::debug("cannot interrupt the runner");
}

std::string runner_session::output_tail() const {
    return process_ ? output_ + process_->output_tail(4096) : output_;
}

const std::optional<device_message>& runner_session::device() {
    if (device_read_) return device_;
    device_read_ = true;
    nlohmann::json message;
    const auto status = process_ ? process_->next(message, after(120)) : runner_process::read_status::closed;
    const std::string kind = status == runner_process::read_status::message ? message.value("event", "") : "";
    if (kind == event::device)
        device_ = message.at("body").get<device_message>();
    else if (kind == event::no_device)
        no_device_ = message.at("body").at("message").get<std::string>();
    else
        no_device_ = "the runner could not open the device";
    if (!device_) stop(true);
    return device_;
}

const std::optional<std::string>& runner_session::no_device() {
    device();
    return no_device_;
}

runner_session::job_end runner_session::run_job(const nlohmann::json& line,
                                                const std::function<void(const nlohmann::json&)>& on_event,
                                                double idle_limit_s) {
    job_end end;
    if (!process_ || !process_->send(line)) {
        end.kind = job_end::how::closed;
        if (process_) end.exit = process_->finish(true);
        return end;
    }
    const double call_limit_s = (spec_.time_limit_ms + settings_.call_slack_ms) / 1000;
    auto deadline = after(idle_limit_s);
    nlohmann::json message;
    for (;;) {
        const auto status = process_->next(message, deadline, interrupt_fd_);
        if (status == runner_process::read_status::interrupted) {
            end.kind = job_end::how::interrupted;
            process_->abandon();
            stop(false);
            return end;
        }
        if (status == runner_process::read_status::timeout) {
            end.kind = job_end::how::timeout;
            stop(true);
            return end;
        }
        if (status == runner_process::read_status::forged) {
            end.kind = job_end::how::forged;
            stop(true);
            return end;
        }
        if (status == runner_process::read_status::closed) {
            end.kind = job_end::how::closed;
            end.exit = process_->finish(false);
            stop(false);
            return end;
        }
        spdlog::debug("runner: {}", message.dump());
        const std::string kind = message.at("event").get<std::string>();
        const nlohmann::json& body = message.at("body");
        if (kind == event::begin) end.test = body.at("test").get<int>();
        if (kind == event::call) end.in_call = true;
        if (kind == event::returned) end.in_call = false;
        if (kind == event::result) end.test = -1;
        deadline = after(end.in_call ? call_limit_s : idle_limit_s);
        if (kind == event::done) return end;
        if (kind == event::fatal) {
            end.kind = job_end::how::fatal;
            end.message = body.at("message").get<std::string>();
            stop(true);
            return end;
        }
        on_event(message);
    }
}

std::optional<std::string> runner_session::load(const std::filesystem::path& library, const std::string& function,
                                                std::optional<double>* peak) {
    if (!device_read_) device();
    if (no_device_) return no_device_;
    const load_job job{library.empty() ? "" : std::filesystem::absolute(library).string(), function, peak != nullptr};
    std::optional<std::string> failure;
    bool loaded = false;
    // Loading ends with `loaded`, not `done`: read until then.
    if (!process_ || !process_->send(job_line("load", job))) return "the runner ended before loading the library";
    nlohmann::json message;
    while (!loaded) {
        const auto status = process_->next(message, after(settings_.harness_limit_s), interrupt_fd_);
        if (status == runner_process::read_status::interrupted) {
            process_->abandon();
            stop(false);
            return "interrupted";
        }
        if (status != runner_process::read_status::message) {
            const child_exit exit = process_->finish(true);
            stop(true);
            return status == runner_process::read_status::forged
                       ? std::string(kForged)
                       : fmt::format("the runner ended while loading the library ({})", exit.describe());
        }
        const std::string kind = message.at("event").get<std::string>();
        if (kind == event::peak && peak) *peak = message.at("body").at("gbps").get<double>();
        if (kind == event::loaded) loaded = true;
        if (kind == event::fatal) {
            failure = message.at("body").at("message").get<std::string>();
            stop(true);
            return failure;
        }
    }
    return std::nullopt;
}

bool runner_session::record_end(const job_end& end, std::vector<test_report>& reports) {
    if (end.kind == job_end::how::done) return true;
    test_report* target = nullptr;
    for (auto& report : reports)
        if ((end.test >= 0 && report.index == end.test) || (end.test < 0 && report.result == verdict::skipped)) {
            target = &report;
            break;
        }
    if (!target) return false;
    switch (end.kind) {
        case job_end::how::timeout:
            target->result = verdict::time_limit_exceeded;
            target->message = end.in_call
                                  ? fmt::format(
                                        "solve did not finish within the time limit of {:g} ms; the "
                                        "process was killed",
                                        spec_.time_limit_ms)
                                  : fmt::format("the test did not finish within {:g} s", settings_.harness_limit_s);
            target->wall_ms = end.in_call ? spec_.time_limit_ms : 0;
            break;
        case job_end::how::forged:
            target->result = verdict::runtime_error;
            target->message = kForged;
            break;
        case job_end::how::closed:
            target->result = verdict::runtime_error;
            target->message = explain_death(end.exit, end.in_call);
            break;
        case job_end::how::fatal:
            target->result = verdict::runtime_error;
            target->message = end.message;
            break;
        case job_end::how::interrupted:
            target->message = "judging was interrupted";
            break;
        case job_end::how::done:
            break;
    }
    return false;
}

namespace {

// Stores a result message in its report; a result for a test not asked for is a forgery.
bool store_result(const nlohmann::json& message, std::vector<test_report>& reports, double time_limit_ms) {
    if (message.at("event") != event::result) return true;
    const auto result = message.at("body").get<test_result_message>();
    for (auto& report : reports) {
        if (report.index != result.test) continue;
        report.result = result.result;
        report.message = result.message;
        report.wall_ms = result.wall_ms;
        report.timing = result.timing;
        if (report.result == verdict::accepted && result.wall_ms > time_limit_ms) {
            report.result = verdict::time_limit_exceeded;
            report.message =
                fmt::format("solve took {:.1f} ms, over the time limit of {:g} ms", result.wall_ms, time_limit_ms);
        }
        return true;
    }
    return false;
}

}  // namespace

void runner_session::announce(const nlohmann::json& message, const std::vector<test_report>& reports,
                              progress_step::stage stage) const {
    if (!progress_ || message.at("event") != event::begin) return;
    const int test = message.at("body").at("test").get<int>();
    for (std::size_t i = 0; i < reports.size(); ++i)
        if (reports[i].index == test)
            tell(progress_, {stage, static_cast<int>(i + 1), static_cast<int>(reports.size()), reports[i].name});
}

bool runner_session::judge(const judge_job& job, std::vector<test_report>& reports) {
    bool believable = true;
    const job_end end = run_job(
        job_line("judge", job),
        [&](const nlohmann::json& message) {
            announce(message, reports, progress_step::stage::testing);
            believable = believable && store_result(message, reports, spec_.time_limit_ms);
        },
        settings_.harness_limit_s);
    return record_end(end, reports) && believable;
}

bool runner_session::time(const time_job& job, std::vector<test_report>& reports) {
    const job_end end = run_job(
        job_line("time", job),
        [&](const nlohmann::json& message) {
            announce(message, reports, progress_step::stage::timing);
            store_result(message, reports, 1e300);  // each timed call is held to the limit as it runs
        },
        settings_.harness_limit_s);
    return record_end(end, reports);
}

bool runner_session::profile(const test_job& job, std::vector<test_report>& reports) {
    bool believable = true;
    const job_end end = run_job(
        job_line("profile", job),
        [&](const nlohmann::json& message) {
            announce(message, reports, progress_step::stage::profiling);
            believable = believable && store_result(message, reports, 1e300);  // the profiled call is slow
        },
        settings_.harness_limit_s);
    return record_end(end, reports) && believable;
}

child_exit runner_session::finish(double limit_s) {
    if (!process_) return {};
    const child_exit exit = process_->end(std::chrono::steady_clock::now() +
                                          std::chrono::milliseconds(static_cast<long long>(limit_s * 1000)));
    output_ += process_->output_tail(4096);
    process_.reset();
    return exit;
}

std::optional<std::string> runner_session::reference_failure(const job_end& end, std::uintmax_t printed) const {
    switch (end.kind) {
        case job_end::how::done:
            break;
        case job_end::how::timeout:
            return fmt::format("the reference did not finish within {:g} s; its process was killed",
                               settings_.reference_limit_s);
        case job_end::how::closed:
            return end.exit.signaled
                       ? fmt::format("the reference was killed by {} before writing its outputs", end.exit.describe())
                       : fmt::format("the reference ended the process ({}) before writing its outputs",
                                     end.exit.describe());
        case job_end::how::fatal:
            return end.message;
        case job_end::how::forged:
            return std::string(kForged);
        case job_end::how::interrupted:
            return std::string("interrupted");
    }
    // Printing is no part of a reference's work, and a chatty one fills the disk over a catalog's data sets.
    if (printed > 0)
        return fmt::format(
            "the reference printed {} bytes on stdout or stderr; a reference must only compute its "
            "outputs",
            printed);
    return std::nullopt;
}

void runner_session::write_references(const reference_job& job) {
    const std::uintmax_t printed_before = process_ ? process_->output_bytes() : 0;
    const job_end end = run_job(
        job_line("reference", job), [](const nlohmann::json&) {}, settings_.reference_limit_s);
    const std::uintmax_t printed_after = process_ ? process_->output_bytes() : printed_before;
    const auto failure = reference_failure(end, printed_after - printed_before);
    if (!failure) return;
    // A broken reference leaves no outputs behind: the next run must not find them cached and pass.
    for (const auto& request : job.requests) std::filesystem::remove(request.expected_file);
    throw problem_error(fmt::format("{}: {}", (spec_.dir / "reference.cpp").string(), *failure));
}

double default_reference_limit_s() {
    const char* text = std::getenv("GPUJUDGE_REFERENCE_LIMIT_S");
    if (!text || !*text) return 120;
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (*end != '\0' || !(seconds > 0)) {
        spdlog::warn("GPUJUDGE_REFERENCE_LIMIT_S='{}' is not a positive number of seconds; using 120", text);
        return 120;
    }
    return seconds;
}

verdict first_failure(const std::vector<test_report>& tests) {
    for (const auto& test : tests)
        if (test.result != verdict::accepted) return test.result;
    return verdict::accepted;
}

}  // namespace gpujudge
