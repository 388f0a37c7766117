#include "runner/session.hpp"

#include "base/file_text.hpp"
#include "base/hex_text.hpp"
#include "base/json_text.hpp"
#include "base/printable_text.hpp"
#include "base/problem_error.hpp"
#include "base/readable_tree.hpp"
#include "checks/test_data.hpp"
#include "process/sandbox.hpp"
#include "process/solve_alone.hpp"
#include "runner/kept_kernels.hpp"
#include "runner/memory_limit.hpp"
#include "runner/shared_outputs.hpp"
#include "timing/call_order.hpp"
#include "toolkit/python_prepared.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <set>

namespace gpujudge {

namespace {

using clock = std::chrono::steady_clock;

clock::time_point after(double seconds) {
    const double capped = std::min(seconds, 1e8);  // "no limit" (1e300) must not overflow the clock
    return clock::now() + std::chrono::milliseconds(static_cast<long long>(capped * 1000));
}

std::string explain_death(const child_exit& exit, bool in_call) {
    if (exit.timed_out)  // the channel closed, but the process went on
        return "the result channel closed while the process kept running: the submission closed or replaced the "
               "judge's file descriptor";
    const std::string where = in_call ? "during solve" : "while the harness checked the test";
    if (exit.signaled && exit.signal == SIGSYS)
        return fmt::format("the process was stopped by {} {}: {}", exit.describe(), where, kSolveAloneRule);
    if (exit.signaled) return fmt::format("the process was killed by {} {}", exit.describe(), where);
    if (in_call)
        return fmt::format("solve ended the process ({}): a submission must return from solve, not call exit()",
                           exit.describe());
    return fmt::format("the process ended ({}) {}", exit.describe(), where);
}

constexpr const char* kDeaf =
    "the runner stopped taking the judge's messages (the submission took over its control pipe); nothing it "
    "reported can be believed";

// How long a first call that compiles (Triton's JIT) may take, in seconds (all of them together:
// runner_settings::compile_budget_s).
constexpr double kCompileCallLimitS = 30;

// A PyTorch file compiles nothing: its first call (torch's lazy set-up: CUDA's libraries, their
// kernels) is held to the time limit plus this, not to a compile's 30 s (a hang cost a grade 30 s).
constexpr double kFirstCallMarginS = 10;

// How long one line to the runner may take to go through, in seconds.
constexpr double kSendLimitS = 30;

constexpr const char* kForged =
    "the submission wrote into the judge's result channel (a line the runner did not seal, or not as the "
    "runner writes it); nothing it reported can be believed";

constexpr const char* kReferenceForged =
    "the reference wrote into the judge's result channel (a line the runner did not seal, or not as the runner "
    "writes it); none of its outputs can be believed";

// Where a sandboxed runner finds the judge's files: fixed paths, bound from the session's staging
// folder. The library to load is placed (hard-linked, else copied) in the first before the load
// job, which names it there; a reference writes its outputs into the second, from where the judge
// moves them into the cache once the job is done. Expected outputs never enter: they stay in the
// judge (shared_outputs.hpp).
const std::filesystem::path kSandboxLibraries = "/judge/lib";
const std::filesystem::path kSandboxOutputs = "/judge/out";
// Where a Python runner's Triton compiles: its own scratch (the sandbox's size-capped /tmp), never a
// folder that outlives it (a submission could fill the disk there, or plant a kernel that another
// file's run loads). What is kept goes through the judge's checks (kept_kernels.hpp).
const std::filesystem::path kSandboxPythonCache = "/tmp/gpujudge-python";
// Triton's kernels kept from a run of the same file (kept_kernels.hpp): sandboxed runners only, which
// send their own for the judge to keep (an unsandboxed one could write the kept folder itself).
const std::filesystem::path kSandboxKeptKernels = "/judge/kernels";

// A file placed where a sandboxed runner sees it: a hard link where both are on one file system
// (nothing copied, and the runner's bind is read-only), else a copy.
void stage_file(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code error;
    std::filesystem::remove(to, error);
    std::filesystem::create_hard_link(from, to, error);
    if (error) std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
    let_others_read(to);  // a root judge's sandbox user, whatever umask the library was written under
}

// A Python runner also sees its Python, read-only: the installation, the environment, every folder
// of sys.path.
void add_python(const runner_settings::python_runner& python, sandbox_policy& policy) {
    std::vector<std::filesystem::path> folders{python.install.home,
                                               std::filesystem::path(python.install.executable).parent_path(),
                                               std::filesystem::path(python.install.library).parent_path()};
    for (const auto& entry : python.install.path) folders.emplace_back(entry);
    if (python.prepared) folders.push_back(*python.prepared);
    if (python.kernels_kept) policy.read_only.push_back({*python.kept_kernels, kSandboxKeptKernels});
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    for (const auto& folder : folders)
        if (std::filesystem::is_directory(folder))
            policy.read_only.push_back({std::filesystem::weakly_canonical(folder), {}});
}

// What a runner sees in the sandbox besides the system: its own executable's folder and ../lib,
// the problem's folder (read-only, at their own paths: the hello job names the problem's), the
// staging folder's parts at fixed paths, and for a launcher its tool's folder (read-only) and the
// folders its report goes to (writable). Nothing of the data folder (the history), the cache, the
// home folder or the judge's other temporary folders.
sandbox_policy runner_policy(const runner_settings& settings, const problem_spec& spec,
                             const std::filesystem::path& stage, const std::optional<nvidia_gpu>& gpu) {
    sandbox_policy policy;
    // The scratch folder's size (and the largest file): 1 GiB, or $GPUJUDGE_SANDBOX_SCRATCH_MB.
    if (const char* text = std::getenv("GPUJUDGE_SANDBOX_SCRATCH_MB"); text && *text) {
        char* end = nullptr;
        const unsigned long mib = std::strtoul(text, &end, 10);
        // strtoul takes "-1" as its largest value; past 1 TiB the tmpfs size overflows or is refused.
        if (std::isdigit(static_cast<unsigned char>(text[0])) && *end == '\0' && mib > 0 && mib <= (1ul << 20))
            policy.scratch_bytes = std::uintmax_t{mib} << 20;
        else
            spdlog::warn("GPUJUDGE_SANDBOX_SCRATCH_MB='{}' is not a whole number of MiB in [1, 1048576]; using 1024",
                         text);
    }
    bind_program(policy, settings.runner_exe);
    policy.read_only.push_back({std::filesystem::absolute(spec.dir), {}});
    policy.read_only.push_back({stage / "lib", kSandboxLibraries});
    if (settings.writes_outputs) policy.writable.push_back({stage / "out", kSandboxOutputs});
    if (!settings.launcher.empty()) {
        // The tool's installation (bin/..: a toolkit, or a stand-in's fixtures), unless the system
        // binds already hold it; never the root.
        std::filesystem::path tool = settings.launcher.front();
        if (tool.parent_path().empty()) tool = find_program(tool.string()).value_or(tool);
        const auto install =
            std::filesystem::weakly_canonical(std::filesystem::absolute(tool)).parent_path().parent_path();
        if (install.has_relative_path() && std::filesystem::is_directory(install))
            policy.read_only.push_back({install, {}});
        for (const auto& folder : settings.launcher_writable)
            policy.writable.push_back({std::filesystem::absolute(folder), {}});
        policy.launcher_tool = true;
    }
    if (settings.python) add_python(*settings.python, policy);
    if (gpu) policy.gpu_minor = gpu->minor;
    // The judge's own folders stay unseen even where a bind holds them; the prepared Python and the
    // kept kernels, bound deeper, are mounted over the cover. TMPDIR holds the expected outputs of
    // every judgement running: a TMPDIR inside a bound folder (beside the runner) would show them.
    policy.hidden = settings.hidden;
    if (!settings.cache_dir.empty()) policy.hidden.push_back(settings.cache_dir);
    policy.hidden.push_back(std::filesystem::temp_directory_path());
    run_as_submission_user(policy, settings.runner_exe);  // a root judge's: not root (the stage is open to it)
    return policy;
}

}  // namespace

// How a job ended: `done`, or why not, with the test it was on.
struct runner_session::job_end {
    // `deaf`: the runner stopped taking the judge's lines (the submission holds its control pipe).
    // `overran`: the job outlived the longest an honest one takes (see run_job).
    enum class how { done, closed, timeout, forged, fatal, interrupted, deaf, overran } kind = how::done;
    int test = -1;  // the test in progress, -1 between tests
    bool in_call = false;
    bool compiling = false;  // in a first call that compiles (see event::compiling)
    bool checking = false;   // between a call's return and its outputs
    // When the call in progress (or the compile) must be over: fixed as it starts, never moved by
    // the messages that come during it (the submission can seal its own, see follow_calls).
    clock::time_point call_deadline;
    bool awaiting_outputs = false;  // a call started, and neither its outputs nor its test's result came
    std::set<int> compiled;         // tests whose first call compiled in this job
    clock::time_point compile_start;
    double compile_limit_s = 0;  // the compile in progress's: kCompileCallLimitS, or what is left of the budget
    // The runner's turn, in a job of solve's calls: from each go the judge can see (the job's start, a
    // test's begin, the ack of a call's outputs, a compile's return, a result) the runner has until
    // then to prepare the next call, make it and ship its outputs, however late its own `call` line
    // comes: solve can hold that line back in its process, and the call's limit never started.
    std::optional<clock::time_point> turn_deadline;
    double turn_s = 0;  // the current turn's length
    double job_limit_s = 0;
    child_exit exit;
    std::string message;
};

namespace {

// The bytes of all of a test's buffers: what the runner goes through between a call's return and its
// outputs (each buffer's guards, each const input made again from its recipe and compared, the
// outputs copied into the window).
std::size_t checked_bytes(const problem_spec& spec, const scalar_values& scalars) {
    std::size_t bytes = 0;
    for (const auto& param : spec.params)
        if (param.is_pointer) bytes += spec.element_count(param, scalars) * element_size(param.type);
    return bytes;
}

// How fast those checks go through at least, in bytes per millisecond: on a GPU they run there; on
// the host one CPU thread makes each input again from its recipe (180 MB/s on the 2-core test
// machine, busy), and a slower machine must not make an honest solve's test a time limit exceeded.
double checked_bytes_per_ms(runner_backend backend) {
    return backend == runner_backend::host ? 50e3 : 1e6;
}

// The harness's least share of a runner's turn before a call (see rules_for), besides the passes
// over the test's buffers.
constexpr double kTurnBaseMs = 1000;

}  // namespace

double post_call_allowance_ms(const problem_spec& spec, runner_backend backend) {
    std::size_t largest = 0;
    for (const auto& test : spec.tests) largest = std::max(largest, checked_bytes(spec, test.scalars));
    return 500 + static_cast<double>(largest) / checked_bytes_per_ms(backend);
}

std::string first_call_overrun(double limit_s, double budget_s, double time_limit_ms) {
    if (limit_s < time_limit_ms / 1000 + kFirstCallMarginS)
        return fmt::format(
            "solve's first calls (untimed warm-ups, one for each test's shapes) took more than {:g} s "
            "together; the process was killed",
            budget_s);
    return fmt::format(
        "solve's first call (an untimed warm-up) did not finish within {:g} s: the time limit of {:g} ms, plus "
        "{:g} s for torch's set-up; the process was killed",
        limit_s, time_limit_ms, kFirstCallMarginS);
}

std::string compile_overrun(double limit_s, double budget_s) {
    if (limit_s < kCompileCallLimitS)
        return fmt::format(
            "solve's first calls, which compile its kernels, took more than {:g} s together; the "
            "process was killed",
            budget_s);
    return fmt::format(
        "solve's first call, which compiles its kernels, did not finish within {:g} s; the process "
        "was killed",
        kCompileCallLimitS);
}

std::vector<test_report> pending_reports(const problem_spec& spec, const std::vector<int>& tests) {
    std::vector<test_report> reports;
    for (const int index : tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        reports.push_back({index, test.name, test.kind, verdict::skipped, "", 0, std::nullopt, std::nullopt, 0});
    }
    return reports;
}

// The threads and processes a sandboxed runner may hold at once: a fork bomb stops there, while
// PyTorch's thread pools and Inductor's compile workers on a 128-core host stay well below. The
// kernel exempts root (a root judge's runners run as another user: run_as_submission_user), and
// counts per user namespace from Linux 5.14 only (before, the runner sets no cap).
constexpr std::uint64_t kSandboxedRunnerTasks = 4096;

hello_job runner_session::hello_for(const problem_spec& spec, const runner_settings& settings) const {
    hello_job hello{"", settings.backend, std::filesystem::absolute(spec.dir).string(), hex_of(spec.yaml_text), {}};
    if (settings.sandbox) hello.max_tasks = kSandboxedRunnerTasks;
    if (const auto& python = settings.python) {
        const python_install& install = python->install;
        hello.python = {install.library,
                        install.home,
                        install.path,
                        (stage_ ? kSandboxPythonCache : work_.path() / "python").string(),
                        python->prepared ? python->prepared->string() : "",
                        stage_ && python->kernels_kept ? kSandboxKeptKernels.string() : "",
                        stage_ && python->kept_kernels,
                        python->shown.string(),
                        python->imports_triton};
    }
    return hello;
}

runner_session::runner_session(const problem_spec& spec, const runner_settings& settings)
    : spec_(spec),
      settings_(settings),
      work_("run"),
      interrupt_fd_(eventfd(0, EFD_CLOEXEC)),
      post_call_allowance_ms_(post_call_allowance_ms(spec, settings.backend)),
      compile_left_s_(settings.compile_budget_s) {
    const auto gpu = given_gpu(settings);  // read once: the policy binds its node, the environment names it
    std::optional<sandbox_policy> policy;
    if (settings.sandbox) {
        require_sandbox();
        stage_.emplace("sandbox");
        // Inside the judge's private folder, open to the sandbox's user (run_as_submission_user gives it out/).
        for (const char* part : {"lib", "out"}) {
            std::filesystem::create_directory(stage_->path() / part);
            std::filesystem::permissions(stage_->path() / part, std::filesystem::perms(0755));
        }
        policy = runner_policy(settings, spec, stage_->path(), gpu);
    }
    process_ = std::make_unique<runner_process>(settings.runner_exe, hello_for(spec, settings), work_.path(),
                                                largest_outputs_bytes(spec), settings.launcher, policy,
                                                runner_environment(settings, gpu));
    if (settings.backend == runner_backend::host) device_read_ = true;
    // A reference's runner runs the problem's code (its requests share a budget of their own), and a
    // launcher's tool takes memory of its own: the submission's runner alone is held to the limit.
    if (!settings.writes_outputs && settings.launcher.empty()) process_->watch_memory(runner_memory_limit(spec));
}

runner_session::~runner_session() {
    close();
    ::close(interrupt_fd_);
}

void runner_session::close() {
    // A launcher (compute-sanitizer) writes its report as the runner exits: let the runner end as
    // after its last job, instead of killing both before the report is out.
    if (process_ && !settings_.launcher.empty()) {
        process_->end();
        stop(false);
    }
    stop(true);
    // Triton's kernels the runner sent are kept under the hash of the bytes it loaded (the learner's
    // file may have changed since runner_for read it).
    if (stage_ && settings_.python && settings_.python->kept_kernels && !loaded_.empty()) {
        const auto kept = kept_kernels_dir(settings_.cache_dir, loaded_, settings_.python->install);
        if (keep_kernels(kernels_.last(), kept)) trim_kept_kernels(kept);
    }
    loaded_.clear();  // kept once
}

void runner_session::stop(bool kill) {
    if (!process_) return;
    process_->finish(kill);
    if (process_->peak_memory())
        spdlog::debug("runner: its processes held at most {} MiB of host memory", process_->peak_memory() >> 20);
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
    try {  // a sealed line that is not what the runner sends (see run_job): no device, never a judge bug
        const std::string kind =
            status == runner_process::read_status::message ? message.at("event").get<std::string>() : "";
        if (kind == event::device)
            device_ = message.at("body").get<device_message>();
        else if (kind == event::no_device)
            no_device_ = printable_output(message.at("body").at("message").get<std::string>());
    } catch (const nlohmann::json::exception&) {
        device_.reset();
    }
    if (!device_ && !no_device_) no_device_ = "the runner could not open the device";
    if (!device_) stop(true);
    return device_;
}

const std::optional<std::string>& runner_session::no_device() {
    device();
    return no_device_;
}

bool runner_session::send(const nlohmann::json& line) {
    if (!process_) return false;
    if (process_->send(line, after(kSendLimitS))) return true;
    deaf_ = true;
    process_->kill();  // its channel closes: the job in progress ends as `deaf`
    return false;
}

void runner_session::acknowledge(bool go) {
    send(job_line(job::ack, outputs_ack{go}));
}

// Where the job's calls stand after a message; false for a message out of the runner's order (a
// call or a compile that starts during another or before the last call's outputs, a second compile
// of a test): only the submission, which can seal lines in its process, sends one, to restart the
// clock of a call that overruns.
bool runner_session::follow_calls(const std::string& kind, const nlohmann::json& body, job_end& end) {
    const bool starts = kind == event::call || kind == event::compiling;
    if (starts && (end.in_call || end.compiling || end.checking || end.awaiting_outputs)) return false;
    if (kind == event::begin) end.test = body.at("test").get<int>();
    if (kind == event::outputs || kind == event::result) end.awaiting_outputs = false;
    if (kind == event::call) {
        end.in_call = end.awaiting_outputs = true;
        end.call_deadline = after(call_limit_s());
    }
    if (kind == event::compiling) {
        if (!end.compiled.insert(body.at("test").get<int>()).second) return false;
        end.compiling = true;
        end.compile_start = clock::now();
        end.compile_limit_s = std::min(first_call_limit_s(), compile_left_s_);
        end.call_deadline = after(end.compile_limit_s);
    }
    if (kind == event::returned && end.compiling)
        compile_left_s_ -= std::chrono::duration<double>(clock::now() - end.compile_start).count();
    // From a call's return to its outputs the runner only checks and ships them: a runner still
    // busy there is doing solve's work (a fault handler, a thread), bounded like the call.
    end.checking = (kind == event::returned && end.in_call) ||
                   (end.checking && kind != event::outputs && kind != event::result && kind != event::begin);
    if (kind == event::returned) end.in_call = end.compiling = false;
    if (kind == event::result) end.test = -1;
    return true;
}

// The turns of a job of `tests` (see job_end::turn_deadline): the harness may take, before a call, as
// long as it takes to make the largest test's data (ten passes over its buffers) or to load the next
// call's buffers.
runner_session::turn_rules runner_session::rules_for(const std::vector<int>& tests) const {
    turn_rules rules{{tests.begin(), tests.end()}, post_call_allowance_ms_};
    for (const int test : tests)
        rules.before_ms =
            std::max(rules.before_ms,
                     kTurnBaseMs + 10 * static_cast<double>(checked_bytes(spec_, spec_.tests.at(test).scalars)) /
                                       checked_bytes_per_ms(settings_.backend));
    return rules;
}

// Where a message leaves the runner's turn: a new one starts at the judge's own goes alone (the job's
// start, the ack of a call's outputs) and at the return of a compile, which each test of the job may
// have once; solve can seal any line in its process, and a line that started turns would let it renew
// its own. False for a line no honest runner sends: a test the job does not hold, a compile of a
// compiled solve's.
bool runner_session::take_turn(const std::string& kind, const nlohmann::json& body, bool was_compiling,
                               const turn_rules& rules, job_end& end) const {
    if ((kind == event::begin || kind == event::compiling) && !rules.tests.count(body.at("test").get<int>()))
        return false;
    if (kind == event::compiling) {
        if (!settings_.python) return false;
        end.turn_deadline.reset();  // the compile's own limit, out of the session's budget, runs instead
        return true;
    }
    if (!kind.empty() && kind != event::outputs && !(kind == event::returned && was_compiling)) return true;
    end.turn_s = (rules.before_ms * settings_.time_limit_scale + time_limit_ms() + settings_.call_slack_ms +
                  post_call_allowance_ms_) /
                 1000;
    end.turn_deadline = after(end.turn_s);
    return true;
}

runner_session::job_end runner_session::run_job(const nlohmann::json& line,
                                                const std::function<void(const nlohmann::json&)>& on_event,
                                                double idle_limit_s, double job_limit_s, const turn_rules* turns) {
    job_end end;
    end.job_limit_s = job_limit_s;
    deaf_ = false;
    if (!send(line)) {
        end.kind = deaf_ ? job_end::how::deaf : job_end::how::closed;
        if (process_) end.exit = process_->finish(true);
        return end;
    }
    const double call_limit_s = this->call_limit_s();
    // Each message between calls moves the deadline on; this one never moves: a runner whose
    // messages keep coming (the submission knows the channel's key, it is in its process) still ends.
    const auto job_deadline = after(job_limit_s);
    clock::time_point deadline;
    if (turns) take_turn("", {}, false, *turns, end);  // the job's start
    const auto next_deadline = [&] {
        deadline = std::min(end.in_call || end.compiling ? end.call_deadline
                            : end.checking               ? after(call_limit_s + post_call_allowance_ms_ / 1000)
                                                         : after(idle_limit_s),
                            job_deadline);
        if (end.turn_deadline) deadline = std::min(deadline, *end.turn_deadline);
    };
    next_deadline();
    const auto forged_end = [&] {
        end.kind = job_end::how::forged;
        stop(true);
        return end;
    };
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
            end.kind = clock::now() >= job_deadline ? job_end::how::overran : job_end::how::timeout;
            stop(true);
            return end;
        }
        if (status == runner_process::read_status::forged) return forged_end();
        if (status == runner_process::read_status::flooded) {
            end.kind = job_end::how::fatal;
            end.message = fmt::format(
                "the process printed more than {} MiB on stdout and stderr and was killed: print less (its last "
                "lines are shown)",
                runner_process::kMaxOutputBytes >> 20);
            stop(true);
            return end;
        }
        if (status == runner_process::read_status::over_memory) {
            end.kind = job_end::how::fatal;
            end.message = over_memory_message(process_->peak_memory(), process_->memory_limit());
            stop(true);
            return end;
        }
        if (status == runner_process::read_status::closed) {
            end.kind = deaf_ ? job_end::how::deaf : job_end::how::closed;
            end.exit = process_->finish(false);
            stop(false);
            return end;
        }
        if (spdlog::should_log(spdlog::level::debug)) spdlog::debug("runner: {}", json_text(message));
        // A sealed line that is not what the runner sends (a field missing, of the wrong type): only the
        // submission, which can read the key in its process, writes one. Forged, not a judge bug.
        try {
            const std::string kind = message.at("event").get<std::string>();
            const nlohmann::json& body = message.at("body");
            const bool was_compiling = end.compiling;
            if (!follow_calls(kind, body, end)) return forged_end();
            if (kind == event::kernel_file) {
                if (!stage_ || !settings_.python || !settings_.python->kept_kernels) return forged_end();  // unasked
                kernels_.add(body.get<kernel_file>());
                next_deadline();
                continue;
            }
            if (kind == event::done) {
                kernels_.end_of_job();
                return end;
            }
            if (kind == event::fatal) {
                end.kind = job_end::how::fatal;
                end.message = printable_output(body.at("message").get<std::string>());  // see protocol.cpp
                stop(true);
                return end;
            }
            on_event(message);  // an outputs' ack is sent here: the next turn starts after it
            if (turns && !take_turn(kind, body, was_compiling, *turns, end)) return forged_end();
            next_deadline();
        } catch (const nlohmann::json::exception&) {
            return forged_end();
        } catch (const std::invalid_argument&) {  // a verdict or a cause by a name none has (parse_verdict)
            return forged_end();
        }
    }
}

std::optional<std::string> runner_session::load(const std::filesystem::path& library, const std::string& function,
                                                std::optional<double>* peak) {
    if (!device_read_) device();
    if (no_device_) return no_device_;
    if (calibration_failure_) return calibration_failure_;
    code_loaded_ = code_loaded_ || !library.empty();
    load_job job{library.empty() ? "" : std::filesystem::absolute(library).string(), function, peak != nullptr};
    // A compiled solve runs alone; a Python one needs torch's threads, a launcher's tool its own.
    job.alone = function == "solve" && !library.empty() && !settings_.python && settings_.launcher.empty();
    if (stage_ && !library.empty()) {  // the one library, where the sandboxed runner sees it
        loaded_ = library;
        stage_file(library, stage_->path() / "lib" / library.filename());
        job.library = (kSandboxLibraries / library.filename()).string();
    }
    bool loaded = false;
    std::optional<std::string> rejected;
    // A learner's constructor that hangs is told in a minute, a reference's within its own limit; a
    // launcher's tool starts slowly.
    const bool reference = function == "reference";  // not the probe's empty load, nor solve
    double limit_s = settings_.launcher.empty() ? settings_.load_limit_s : settings_.harness_limit_s;
    if (reference) limit_s = std::min(limit_s, settings_.reference_limit_s);
    const std::uintmax_t printed_before = process_ ? process_->output_bytes() : 0;
    const job_end end = run_job(
        job_line(job::load, job),
        [&](const nlohmann::json& message) {
            const std::string kind = message.at("event").get<std::string>();
            if (kind == event::rejected)  // see protocol.cpp: runner text is escaped as it enters
                rejected = printable_output(message.at("body").at("message").get<std::string>());
            // The first: measured before the library is loaded. A later one came from its code.
            if (kind == event::peak && peak && !*peak) *peak = message.at("body").at("gbps").get<double>();
            if (kind == event::loaded) loaded = true;
        },
        limit_s, limit_s);
    switch (end.kind) {
        case job_end::how::done:
            rejected_ = rejected.has_value();
            if (rejected) return rejected;
            if (!loaded) return std::string("the runner did not load the library");
            if (const std::uintmax_t printed = (process_ ? process_->output_bytes() : 0) - printed_before;
                reference && printed > 0)
                return fmt::format(
                    "the reference printed {} bytes on stdout or stderr as its library loaded (a static "
                    "constructor); a reference must only compute its outputs",
                    printed);
            return std::nullopt;
        case job_end::how::interrupted:
            return std::string("interrupted");
        case job_end::how::forged:
            return std::string(kForged);
        case job_end::how::fatal:
            return end.message;
        case job_end::how::timeout:
        case job_end::how::overran:
            if (settings_.python && !reference)
                return fmt::format("the runner did not load the file within {:g} s: its top level ran that long",
                                   limit_s);
            return fmt::format(
                "the runner did not load the library within {:g} s: its static constructors ran that long", limit_s);
        case job_end::how::deaf:
            return std::string(kDeaf);
        case job_end::how::closed:
            break;
    }
    if (end.exit.signaled && end.exit.signal == SIGSYS)  // a constructor of the library did
        return fmt::format("the runner was stopped by {} while loading the library: {}", end.exit.describe(),
                           reference ? kReferenceAloneRule : kSolveAloneRule);
    return fmt::format("the runner ended while loading the library ({})", end.exit.describe());
}

bool runner_session::compiles_kernels() const {
    return settings_.python && settings_.python->compiles_first_call;
}

double runner_session::first_call_limit_s() const {
    return compiles_kernels() ? kCompileCallLimitS : time_limit_ms() / 1000 + kFirstCallMarginS;
}

// What a test that ran out of time was doing: compiling, in its call, between the call's return and
// its outputs, or the harness's own work.
std::string runner_session::timeout_message(const job_end& end) const {
    if (end.compiling && !compiles_kernels())
        return first_call_overrun(end.compile_limit_s, settings_.compile_budget_s, time_limit_ms());
    if (end.compiling) return compile_overrun(end.compile_limit_s, settings_.compile_budget_s);
    if (end.in_call)
        return fmt::format("solve did not finish within the time limit of {:g} ms; the process was killed",
                           time_limit_ms());
    if (end.checking) {
        const std::size_t bytes =
            end.test < 0 ? 0 : checked_bytes(spec_, spec_.tests.at(static_cast<std::size_t>(end.test)).scalars);
        return fmt::format(
            "solve returned, but the harness's checks after it ({:.0f} MB of buffers) had not finished {:g} ms "
            "after the call began: something solve left running (a thread, a signal handler) held them up, or "
            "this machine is too slow for this test; the process was killed",
            static_cast<double>(bytes) / 1e6, time_limit_ms() + settings_.call_slack_ms + post_call_allowance_ms_);
    }
    if (end.turn_deadline)
        return fmt::format(
            "the test's call, with the harness's work before and after it, did not finish within {:.1f} s on the "
            "judge's clock (the time limit of {:g} ms and the harness's allowance); the process was killed",
            end.turn_s, time_limit_ms());
    return fmt::format("the test did not finish within {:g} s", settings_.harness_limit_s);
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
            target->message = timeout_message(end);
            target->wall_ms = end.in_call && !end.compiling ? time_limit_ms() : 0;
            break;
        case job_end::how::forged:
            target->result = verdict::runtime_error;
            target->message = kForged;
            break;
        case job_end::how::deaf:
            target->result = verdict::runtime_error;
            target->message = kDeaf;
            break;
        case job_end::how::overran:
            target->result = verdict::time_limit_exceeded;
            target->message = fmt::format(
                "the runner was still busy after {:.0f} s, longer than the whole job may take; the process was killed",
                end.job_limit_s);
            break;
        case job_end::how::closed:
            target->result = verdict::runtime_error;
            target->message = explain_death(end.exit, end.in_call || end.compiling);  // a first call is solve's too
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
        report.cause = result.cause;
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

// What the judge found in the outputs the runner shipped during one job.
struct runner_session::call_checks {
    std::map<int, call_outcome> failures;  // the first wrong outputs of each test: the judge's verdict
    std::map<int, int> calls;              // outputs compared, by test
    // The runner's share of each call's cycle, on the judge's clock: from the ack of the call before
    // to this call's outputs (the judge's own comparing stays out).
    std::map<int, std::vector<double>> cycles_ms;
    std::map<int, std::chrono::steady_clock::time_point> last_ack;
    // When each test's latest call began, and the limit from there to its outputs (0: none).
    std::map<int, std::chrono::steady_clock::time_point> called;
    double limit_ms = 0;
};

// The time from the call to its outputs on the judge's clock, against the time limit: what the
// runner reports of a call's time is not believed, and work moved past solve's return still counts.
void runner_session::check_call_time(int test, call_checks& checks) const {
    const auto called = checks.called.find(test);
    if (checks.limit_ms <= 0 || called == checks.called.end() || checks.failures.count(test)) return;
    const double took_ms = std::chrono::duration<double, std::milli>(clock::now() - called->second).count();
    if (took_ms <= checks.limit_ms + post_call_allowance_ms_) return;
    call_outcome outcome;
    outcome.result = verdict::time_limit_exceeded;
    outcome.message = fmt::format(
        "solve's call took {:.0f} ms from its start to its outputs on the judge's clock, over the time limit of "
        "{:g} ms",
        took_ms, checks.limit_ms);
    checks.failures.emplace(test, std::move(outcome));
}

// A call's cycle on the judge's clock, as its outputs come: from the ack of the call before.
void runner_session::note_cycle(int test, call_checks& checks) const {
    if (const auto acked = checks.last_ack.find(test); acked != checks.last_ack.end())
        checks.cycles_ms[test].push_back(
            std::chrono::duration<double, std::milli>(clock::now() - acked->second).count());
}

// Dated before it is sent: the runner's next call starts once it has the ack, and a judge thread held
// up between the two would otherwise date the ack after that call (cycles of 15 µs against 100 µs
// calls on a loaded machine: a false impossible_time).
void runner_session::acknowledge_outputs(int test, bool go, call_checks& checks) {
    const auto acked = clock::now();
    acknowledge(go);
    checks.last_ack[test] = acked;
}

bool runner_session::check_outputs(int test, const named_arrays& expected, const std::string& where, bool stop,
                                   call_checks& checks) {
    const scalar_values& scalars = spec_.tests.at(static_cast<std::size_t>(test)).scalars;
    note_cycle(test, checks);
    ++checks.calls[test];
    check_call_time(test, checks);
    named_arrays got = process_->outputs().read(spec_, scalars);  // a copy: the runner may write on
    const bool passed = passes_as(spec_, scalars, expected, got);
    if (!passed && !checks.failures.count(test)) {
        call_outcome outcome = wrong_answer_of(compare_outputs(spec_, scalars, expected, got),
                                               settings_.python ? solve_language::python : solve_language::cuda);
        if (!where.empty()) outcome.message = fmt::format("{}: {}", where, outcome.message);
        checks.failures.emplace(test, std::move(outcome));
        wrong_outputs_[test] = std::move(got);
    }
    acknowledge_outputs(test, passed || !stop, checks);
    return passed;
}

namespace {

bool is_event(const nlohmann::json& message, const char* kind) {
    return message.at("event").get<std::string>() == kind;
}

int test_of(const nlohmann::json& message) {
    return message.at("body").at("test").get<int>();
}

test_report* report_of(int test, std::vector<test_report>& reports) {
    for (auto& report : reports)
        if (report.index == test) return &report;
    return nullptr;
}

// The judge's own findings decide over what the runner said of a test: outputs that did not pass
// are a wrong answer, and a pass the runner claims without having shipped outputs is not believed.
void apply_checks(test_report& report, const std::map<int, call_outcome>& failures, const std::map<int, int>& calls) {
    if (const auto failure = failures.find(report.index); failure != failures.end()) {
        report.result = failure->second.result;
        report.message = failure->second.message;
        report.cause = failure->second.cause;
        report.timing.reset();
        return;
    }
    const auto shipped = calls.find(report.index);
    if (report.result == verdict::accepted && (shipped == calls.end() || shipped->second == 0)) {
        report.result = verdict::runtime_error;
        report.message =
            "the runner reported a pass without shipping the call's outputs; nothing it reports can be "
            "believed";
        report.timing.reset();
    }
}

}  // namespace

bool runner_session::judge_calls(const char* kind, const nlohmann::json& body, const expected_by_test& expected,
                                 bool stop, progress_step::stage stage, double wall_limit_ms, int calls_per_test,
                                 std::vector<test_report>& reports) {
    const double job_limit_s =
        static_cast<double>(expected.size()) * (settings_.harness_limit_s + calls_per_test * call_limit_s());
    call_checks checks;
    checks.limit_ms = wall_limit_ms < 1e100 ? wall_limit_ms : 0;  // a profiled call has none
    std::vector<int> tests;  // a judge job's, each with its data; a profile job has no turns
    if (body.contains("tests"))
        for (const auto& item : body.at("tests")) tests.push_back(item.at("test").get<int>());
    const turn_rules rules = rules_for(tests);
    std::map<int, int> call_events;
    bool believable = true;
    const job_end end = run_job(
        job_line(kind, body),
        [&](const nlohmann::json& message) {
            announce(message, reports, stage);
            if (is_event(message, event::call)) {
                // A job calls each test's solve calls_per_test times: the runner sends no other call.
                believable = believable && ++call_events[test_of(message)] <= calls_per_test;
                checks.called[test_of(message)] = clock::now();
            }
            if (is_event(message, event::outputs)) {
                const auto found = expected.find(test_of(message));
                if (found == expected.end()) {  // outputs of a test not asked for
                    believable = false;
                    acknowledge(false);
                    return;
                }
                check_outputs(found->first, found->second, "", stop, checks);
                return;
            }
            believable = believable && store_result(message, reports, wall_limit_ms);
            if (is_event(message, event::result))
                if (test_report* report = report_of(test_of(message), reports))
                    apply_checks(*report, checks.failures, checks.calls);
        },
        settings_.harness_limit_s, job_limit_s, checks.limit_ms > 0 ? &rules : nullptr);
    return record_end(end, reports) && believable;
}

bool runner_session::judge(const judge_job& job, const expected_by_test& expected, std::vector<test_report>& reports) {
    return judge_calls(job::judge, job, expected, job.stop_at_failure, progress_step::stage::testing, time_limit_ms(),
                       1, reports);
}

bool runner_session::profile(const test_job& job, const expected_by_test& expected, std::vector<test_report>& reports) {
    // The profiled call is slow: no wall limit beyond the runner's own.
    return judge_calls(job::profile, job, expected, true, progress_step::stage::profiling, 1e300, 2, reports);
}

namespace {

// The `quantile` of the last `count` cycles (the sampled calls'); 0 without any.
double cycle_quantile_ms(std::vector<double> cycles, int count, double quantile) {
    if (count <= 0 || cycles.empty()) return 0;
    if (cycles.size() > static_cast<std::size_t>(count))
        cycles.erase(cycles.begin(), cycles.end() - static_cast<std::ptrdiff_t>(count));
    const auto at = static_cast<std::ptrdiff_t>(quantile * static_cast<double>(cycles.size() - 1) + 0.5);
    std::nth_element(cycles.begin(), cycles.begin() + at, cycles.end());
    return cycles[static_cast<std::size_t>(at)];
}

double median_cycle_ms(const std::vector<double>& cycles, int count) {
    return cycle_quantile_ms(cycles, count, 0.5);
}

// What a timed call's median may leave out of the rest of its cycle besides half of it: a launch and
// the clocks' granularity.
constexpr double kUntimedAllowanceMs = 0.1;
// How much longer the harness's share may grow than calibrate measured it: the machine's load changes
// between the two. A parallel build made the host's share of tiny_sum 3.5 ms in one and 7.5 ms in the
// next; on an H200 honest cycles stayed within the share measured (reduction at 100M: 1939 µs for 9 in
// 10 cycles, the share at most 2128 µs).
double harness_noise(runner_backend backend) {
    return backend == runner_backend::host ? 3 : 2;
}

// A timed test the runner says passed, against what the judge saw of it: as many outputs as
// samples at least, and a median no longer than the calls' own cycle on the judge's clock.
void check_timing(test_report& report, int calls, const std::vector<double>& cycles_ms,
                  std::optional<double> harness_ms, runner_backend backend) {
    if (report.result != verdict::accepted) return;
    const auto refuse = [&](const std::string& why) {
        report.result = verdict::runtime_error;
        report.message = fmt::format("{}; nothing it reports can be believed", why);
        report.timing.reset();
    };
    if (!report.timing) return refuse("the runner reported a timed pass without its timing");
    const timing_summary& timing = *report.timing;
    const sample_stats& t = timing.stats;
    if (!(std::isfinite(t.median) && std::isfinite(t.min) && std::isfinite(t.mean) && t.min > 0 && t.min <= t.median &&
          t.median <= t.max && t.count >= 2))
        return refuse(fmt::format("the runner reported timing that no run gives (median {}, min {}, {} samples)",
                                  t.median, t.min, t.count));
    if (t.count > calls)
        return refuse(
            fmt::format("the runner reported {} timed samples but shipped the outputs of {} calls", t.count, calls));
    report.cycle_median_ms = median_cycle_ms(cycles_ms, timing.stats.count);
    // A call cannot take longer than the whole cycle around it (with the clocks' granularity).
    if (report.cycle_median_ms > 0 && timing.stats.median > report.cycle_median_ms * 1.05 + 0.05) {
        report.result = verdict::impossible_time;
        report.message = fmt::format(
            "the reported median of {:.1f} µs is longer than the {:.1f} µs each call's whole cycle took on the "
            "judge's clock",
            timing.stats.median * 1e3, report.cycle_median_ms * 1e3);
        report.timing.reset();
        return;
    }
    // Nor much shorter than what is left of the cycle once the harness's own share is taken off
    // (measured before the library was loaded): the runner's clocks are in the submission's process.
    // Generous: the median of all the test's cycles (warm-ups too: no count of the runner's picks
    // them) against the harness's high tenth, twice over, and half the rest; the median reported leaves
    // out launch latency and an allowance of solve's host time when calls are held back.
    if (!harness_ms) return;
    const double cycle_ms = median_cycle_ms(cycles_ms, static_cast<int>(cycles_ms.size()));
    const double unexplained_ms = cycle_ms - harness_noise(backend) * *harness_ms;
    spdlog::debug("runner: test {}: a median cycle of {:.1f} µs, the harness's at most {:.1f} µs, median {:.1f} µs",
                  report.index, cycle_ms * 1e3, *harness_ms * 1e3, timing.stats.median * 1e3);
    if (timing.stats.median >= 0.5 * unexplained_ms - kUntimedAllowanceMs) return;
    report.result = verdict::impossible_time;
    report.message = fmt::format(
        "the judge's clock saw {:.1f} µs per timed call (the median of {} calls), of which the harness's own work "
        "takes at most {:.1f} µs (measured before the library was loaded); a median of {:.1f} µs leaves most of the "
        "rest untimed: work hidden from the runner's clocks, which are in solve's process",
        cycle_ms * 1e3, cycles_ms.size(), *harness_ms * 1e3, timing.stats.median * 1e3);
    report.timing.reset();
}

// The median of the repeat calls' cycles nearest call `k` (up to three on each side): a baseline of the
// same moment of the run, where clocks may still ramp up and a first use may cost.
double repeats_around_ms(const std::vector<double>& cycles_ms, const std::vector<bool>& first, std::size_t k) {
    std::vector<double> near;
    for (std::size_t i = k, taken = 0; i-- > 0 && taken < 3;)
        if (!first[i]) near.push_back(cycles_ms[i]), ++taken;
    for (std::size_t i = k + 1, taken = 0; i < cycles_ms.size() && taken < 3; ++i)
        if (!first[i]) near.push_back(cycles_ms[i]), ++taken;
    return near.empty() ? 0 : median_cycle_ms(near, static_cast<int>(near.size()));
}

// Work done once per data set and replayed after (a red team's solve hashed each input, computed its
// answer in the first call that got it and replayed it, its clock patched: 200 ms per data set, a
// median of 7 µs accepted) is in no median: a handful of slow calls among hundreds. Honest calls do
// not slow down for a data set they have not seen (each call's data is made afresh from its recipe),
// so when every first call of a data set is slower than twice the repeat calls around it, and by a
// millisecond at least, the answers were replayed. Not data set 0, the test's own, answered in the
// judged calls, nor the test's first call, which has no cycle (nothing acks before it). `sets`: the
// data set of each call, in order; `cycles_ms` from the second.
void check_replays(test_report& report, const std::vector<double>& cycles_ms, const std::vector<std::size_t>& sets) {
    if (report.result != verdict::accepted || sets.size() != cycles_ms.size() + 1) return;
    std::vector<bool> first(cycles_ms.size());
    std::set<std::size_t> seen{sets.front()};
    for (std::size_t k = 0; k < cycles_ms.size(); ++k) first[k] = seen.insert(sets[k + 1]).second;
    double fastest_first_ms = 1e300, highest_baseline_ms = 0;
    int kept = 0;
    for (std::size_t k = 0; k < cycles_ms.size(); ++k) {
        if (!first[k] || sets[k + 1] == 0) continue;
        const double baseline_ms = repeats_around_ms(cycles_ms, first, k);
        if (baseline_ms <= 0 || cycles_ms[k] <= baseline_ms + std::max(baseline_ms, 1.0)) return;
        fastest_first_ms = std::min(fastest_first_ms, cycles_ms[k]);
        highest_baseline_ms = std::max(highest_baseline_ms, baseline_ms);
        ++kept;
    }
    if (kept < 2) return;
    report.result = verdict::impossible_time;
    report.message = fmt::format(
        "the first call on each of {} data sets took {:.1f} µs or more on the judge's clock, against at most {:.1f} "
        "µs for the calls around it on data sets seen before: answers computed once per data set and replayed, whose "
        "work no timed median holds",
        kept, fastest_first_ms * 1e3, highest_baseline_ms * 1e3);
    report.timing.reset();
}

}  // namespace

namespace {

std::vector<int> tests_of(const time_job& job) {
    std::vector<int> tests;
    for (const auto& test : job.tests) tests.push_back(test.test);
    return tests;
}

}  // namespace

double runner_session::time_job_limit_s(const time_job& job) const {
    // Warm-up may start over once (timed_runs.cpp); sampling stops at the budget, past it only to
    // reach 16 samples. Twice that, for the judge's own comparing and a loaded machine.
    const timed_settings& t = job.settings;
    const double per_test =
        settings_.harness_limit_s + 2 * (2 * t.warmup_s + t.budget_s) + 2 * (2 * t.warmup + 32) * call_limit_s();
    return static_cast<double>(job.tests.size()) * per_test;
}

bool runner_session::time(const time_job& job, const expected_by_data_set& expected,
                          std::vector<test_report>& reports) {
    const turn_rules rules = rules_for(tests_of(job));
    call_checks checks;
    checks.limit_ms = time_limit_ms();
    std::map<int, unrepeated_draws> draws;          // the runner's order, drawn again from the same seed
    std::map<int, std::vector<std::size_t>> drawn;  // each test's data sets, call by call
    for (const auto& test : job.tests) draws.emplace(test.test, data_set_order(job.order_seed, test.data_sets.size()));
    bool believable = true;
    const job_end end = run_job(
        job_line(job::time, job),
        [&](const nlohmann::json& message) {
            announce(message, reports, progress_step::stage::timing);
            if (is_event(message, event::call)) checks.called[test_of(message)] = clock::now();
            if (is_event(message, event::outputs)) {
                const int test = test_of(message);
                const auto sets = expected.find(test);
                const auto order = draws.find(test);
                if (sets == expected.end() || order == draws.end()) {
                    believable = false;
                    acknowledge(false);
                    return;
                }
                const std::size_t d = order->second.next();
                drawn[test].push_back(d);
                const std::string where = fmt::format("timed run {} (data set {})", checks.calls[test] + 1, d);
                check_outputs(test, sets->second.at(d), where, true, checks);
                return;
            }
            believable = believable && store_result(message, reports, 1e300);  // each call is held to the limit
            if (is_event(message, event::result))
                if (test_report* report = report_of(test_of(message), reports)) {
                    apply_checks(*report, checks.failures, checks.calls);
                    const auto harness = harness_cycle_ms_.find(report->index);
                    check_timing(
                        *report, checks.calls[report->index], checks.cycles_ms[report->index],
                        harness == harness_cycle_ms_.end() ? std::nullopt : std::optional<double>(harness->second),
                        settings_.backend);
                    check_replays(*report, checks.cycles_ms[report->index], drawn[report->index]);
                }
        },
        settings_.harness_limit_s, time_job_limit_s(job), &rules);
    return record_end(end, reports) && believable;
}

void runner_session::calibrate(time_job job) {
    if (!process_ || code_loaded_) return;  // measured under the submission's code, it would be its say
    job.empty = true;
    const turn_rules rules = rules_for(tests_of(job));
    call_checks checks;
    const job_end end = run_job(
        job_line(job::time, job),
        [&](const nlohmann::json& message) {
            if (!is_event(message, event::outputs)) return;
            const int test = test_of(message);
            note_cycle(test, checks);
            acknowledge_outputs(test, true, checks);
        },
        settings_.harness_limit_s, time_job_limit_s(job), &rules);
    if (end.kind != job_end::how::done) {  // no code of the submission's had run: not its failure
        if (!process_)
            calibration_failure_ =
                "the runner ended while the judge measured its harness, before the library was loaded: a fault of "
                "this machine or of the judge, not of the submission";
        return;
    }
    for (auto& [test, cycles] : checks.cycles_ms) {  // the warm-up's first calls are cold: left out
        const double harness_ms =
            cycle_quantile_ms(cycles, std::max(0, static_cast<int>(cycles.size()) - job.settings.warmup), 0.9);
        if (harness_ms <= 0) continue;
        harness_cycle_ms_[test] = harness_ms;
        spdlog::debug("runner: test {}'s harness takes at most {:.1f} µs of 9 in 10 timed calls' cycles", test,
                      harness_ms * 1e3);
    }
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
        case job_end::how::overran:
            return fmt::format("the reference did not finish within {:g} s; its process was killed",
                               settings_.reference_limit_s);
        case job_end::how::deaf:
            return std::string(kDeaf);
        case job_end::how::closed:
            if (end.exit.signaled && end.exit.signal == SIGSYS)
                return fmt::format("the reference was killed by {}: {}", end.exit.describe(), kReferenceAloneRule);
            return end.exit.signaled
                       ? fmt::format("the reference was killed by {} before writing its outputs", end.exit.describe())
                       : fmt::format(
                             "the reference ended the process ({}) before writing its outputs: it called "
                             "exit(), or closed the runner's pipes to the judge",
                             end.exit.describe());
        case job_end::how::fatal:
            return end.message;
        case job_end::how::forged:
            return std::string(kReferenceForged);
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

void runner_session::write_references(const reference_job& asked) {
    // A sandboxed reference writes into the staging folder's out/; the judge moves the files into
    // the cache once the job is done, and only then.
    reference_job job = asked;
    std::vector<std::filesystem::path> staged;
    if (stage_)
        for (auto& request : job.requests) {
            const std::string name = fmt::format("reference-{}.out", staged.size());
            staged.push_back(stage_->path() / "out" / name);
            request.expected_file = (kSandboxOutputs / name).string();
        }
    const std::uintmax_t printed_before = process_ ? process_->output_bytes() : 0;
    std::vector<std::size_t> running;  // requests started and not written, oldest first
    std::vector<bool> written(job.requests.size(), false);
    const auto follow = [&](const nlohmann::json& message) {
        const std::string kind = message.at("event").get<std::string>();
        if (kind != event::started && kind != event::written) return;
        const auto request = message.at("body").at("request").get<std::size_t>();
        if (kind == event::started) running.push_back(request);
        if (kind != event::written || request >= written.size()) return;
        written[request] = true;
        running.erase(std::remove(running.begin(), running.end(), request), running.end());
    };
    const job_end end =
        run_job(job_line(job::reference, job), follow, settings_.reference_limit_s,
                settings_.reference_limit_s * static_cast<double>(std::max<std::size_t>(1, job.requests.size())));
    const std::uintmax_t printed_after = process_ ? process_->output_bytes() : printed_before;
    auto failure = reference_failure(end, printed_after - printed_before);
    const bool crashed = end.kind == job_end::how::closed;
    const bool hung = end.kind == job_end::how::timeout || end.kind == job_end::how::overran;
    // A crash is any running request's, or one taken before them still making its inputs: all those
    // unwritten up to the last started are suspects, so that the test named is the same every run.
    std::vector<std::size_t> suspects;
    if (crashed && !running.empty())
        for (std::size_t i = 0; i <= *std::max_element(running.begin(), running.end()) && i < written.size(); ++i)
            if (!written[i]) suspects.push_back(i);
    // After a silence as long as the limit, every request running has run past it: the first is named.
    // Past the job's limit, the oldest.
    std::optional<std::size_t> culprit;
    if (failure && crashed && suspects.size() == 1) culprit = suspects.front();
    if (failure && hung && !running.empty())
        culprit =
            end.kind == job_end::how::timeout ? *std::min_element(running.begin(), running.end()) : running.front();
    if (culprit && *culprit < asked.requests.size())
        failure = fmt::format("test '{}': {}",
                              spec_.tests.at(static_cast<std::size_t>(asked.requests[*culprit].test)).name, *failure);
    for (std::size_t i = 0; i < staged.size() && !failure; ++i) {
        if (!std::filesystem::exists(std::filesystem::symlink_status(staged[i])))
            failure = "the reference process ended its job without writing its outputs";
        else if (take_from_sandbox(staged[i], asked.requests[i].expected_file))
            failure = "the reference process left something other than a file where its outputs go";
    }
    if (!failure) return;
    // A broken reference leaves no outputs behind: the next run must not find them cached and pass.
    std::error_code ignored;
    for (const auto& file : staged) std::filesystem::remove(file, ignored);
    for (const auto& request : asked.requests) std::filesystem::remove(request.expected_file, ignored);
    const std::string message = fmt::format("{}: {}", (spec_.dir / "reference.cpp").string(), *failure);
    if (crashed && suspects.size() > 1) throw reference_crash_among(message, suspects);
    throw problem_error(message);
}

std::vector<std::pair<std::string, std::string>> runner_environment(const runner_settings& settings,
                                                                    const std::optional<nvidia_gpu>& gpu) {
    if (!settings.gpu) return {};
    return {{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
            {"CUDA_VISIBLE_DEVICES", gpu ? gpu->uuid : std::to_string(*settings.gpu)}};
}

std::optional<nvidia_gpu> given_gpu(const runner_settings& settings) {
    if (!settings.gpu) return std::nullopt;
    const auto gpus = nvidia_gpus(settings.gpu_listing);
    if (*settings.gpu >= 0 && static_cast<std::size_t>(*settings.gpu) < gpus.size())
        return gpus[static_cast<std::size_t>(*settings.gpu)];
    // Opens no GPU, or there is none to open (the driver lists none): nothing to warn of.
    if (settings.backend == runner_backend::host || gpus.empty()) return std::nullopt;
    static std::once_flag warned;  // once a process, not once a runner
    std::call_once(warned, [&] {
        spdlog::warn("GPU {} is not among the {} that {} lists: its runners can open every GPU's device node",
                     *settings.gpu, gpus.size(), settings.gpu_listing.string());
    });
    return std::nullopt;
}

runner_settings runner_for(const runner_settings& base, const std::filesystem::path& source) {
    if (!is_python_source(source)) return base;
    const python_install& python = find_python(base.cache_dir);
    require_python_for(source, python);
    runner_settings settings = base;
    // The learner's path, as named: tracebacks show it.
    runner_settings::python_runner& runner = settings.python.emplace();
    runner.install = python;
    runner.shown = source;
    runner.imports_triton = imports_triton(source);
    runner.compiles_first_call = compiles_on_first_call(source);
    if (!base.cache_dir.empty()) {
        // Canonical, as its bind is: the hello names it where the runner sees it.
        if (const auto prepared = python_prepared(python, base.cache_dir))
            runner.prepared = std::filesystem::weakly_canonical(*prepared);
        if (runner.imports_triton) {
            runner.kept_kernels = kept_kernels_dir(base.cache_dir, source, python);
            runner.kernels_kept = std::filesystem::is_directory(*runner.kept_kernels);
            if (runner.kernels_kept) mark_kernels_used(*runner.kept_kernels);
        }
    }
    return settings;
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

const test_report* deciding_test(const std::vector<test_report>& tests) {
    for (const auto& test : tests)
        if (test.result != verdict::accepted) return &test;
    return nullptr;
}

test_report* deciding_test(std::vector<test_report>& tests) {
    return const_cast<test_report*>(deciding_test(static_cast<const std::vector<test_report>&>(tests)));
}

}  // namespace gpujudge
