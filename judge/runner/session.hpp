#pragma once
// Runs jobs in a runner process and turns every way a runner can end (a result, a crash, exit(),
// a hang, a forged message) into a verdict per test.
#include "base/problem_error.hpp"
#include "base/progress.hpp"
#include "base/temp_dir.hpp"
#include "checks/verdict.hpp"
#include "process/nvidia_gpus.hpp"
#include "runner/kept_kernels.hpp"
#include "runner/process.hpp"
#include "runner/protocol.hpp"
#include "spec/problem_spec.hpp"
#include "toolkit/python_probe.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpujudge {

struct test_report {
    int index = 0;
    std::string name;
    test_kind kind = test_kind::functional;
    verdict result = verdict::skipped;
    std::string message;
    double wall_ms = 0;
    std::optional<timing_summary> timing;  // timed runs only
    std::optional<cause_kind> cause;       // a wrong answer's likely cause, named in the message
    double cycle_median_ms = 0;            // timed runs: the runner's median share of a call's cycle, judge's clock
};

// How long the runner may take between a call's return and its outputs, in ms: its checks of the
// guards and const inputs and its copy of the outputs, over all of the largest test's buffers, on
// `backend` (the host's CPU checks far slower than a GPU).
double post_call_allowance_ms(const problem_spec& spec, runner_backend backend);

// How long a reference may compute one output before its process is killed: 120 s, or
// $GPUJUDGE_REFERENCE_LIMIT_S (a positive number of seconds; the tests of hanging references use it).
double default_reference_limit_s();

struct runner_settings {
    std::filesystem::path runner_exe;
    std::vector<std::string>
        launcher;  // a command the runner starts behind (compute-sanitizer, ncu); none: run it directly
    runner_backend backend = runner_backend::device;
    double harness_limit_s = 600;  // preparing and checking one test, outside solve
    double load_limit_s = 60;      // loading the library: its static constructors (a Python file's top level)
    // A session's first calls that compile (Triton's JIT; 30 s each), together: a solve that slept in
    // each, where nothing times it, held a grader for minutes.
    double compile_budget_s = 120;
    double call_slack_ms = 250;                              // scheduling and message latency on top of the time limit
    double reference_limit_s = default_reference_limit_s();  // one reference job, between two outputs
    double time_limit_scale = 1;  // the problem's time limit times this (a launcher's tool slows kernels down)
    // The runner (and its launcher) in the sandbox (process/sandbox.hpp); off with --no-sandbox.
    bool sandbox = true;
    // A reference's runner, which writes its outputs into the sandbox's /judge/out (on the judge's disk):
    // a submission's runner gets no such folder, which it could fill (a Python one only where it keeps
    // its Triton kernels there).
    bool writes_outputs = false;
    // Folders the launcher writes its report into: bound writable in the sandbox, at their own path.
    std::vector<std::filesystem::path> launcher_writable;
    // The one GPU the runner sees (a worker of `grade`), by nvidia-smi's number (PCI bus order; CUDA's
    // own default order, fastest first, may number GPUs otherwise): it starts with CUDA_VISIBLE_DEVICES
    // naming that GPU's UUID (its number where the driver's listing lacks it), over the judge's own, and
    // in the sandbox that GPU's device node is the only one of the GPUs' nodes bound. None: the judge's
    // environment decides.
    std::optional<int> gpu;
    std::filesystem::path gpu_listing = "/proc/driver/nvidia/gpus";  // where the driver lists the GPUs
    // A Python solution's runner (runner_program/python_host.hpp): which Python, and the learner's path
    // of the file (tracebacks name it).
    struct python_runner {
        python_install install;
        std::filesystem::path shown;
        bool imports_triton = false;
        bool compiles_first_call = false;  // compiles_on_first_call: its first call gets the compile's 30 s
        std::optional<std::filesystem::path> prepared;      // toolkit/python_prepared.hpp, bound read-only
        std::optional<std::filesystem::path> kept_kernels;  // kept_kernels.hpp: this file's, updated after
        bool kernels_kept = false;                          // kept_kernels holds some: bound read-only
    };
    std::optional<python_runner> python;
    std::filesystem::path cache_dir;  // the judge's cache: the prepared Python, kept kernels
    // The judge's other folders (the data folder): with the cache, hidden wherever a runner's bind
    // would show them (a Python installed beside them binds their parent).
    std::vector<std::filesystem::path> hidden;
};

// The GPU a runner is given (runner_settings::gpu) as the driver lists it, or none where the listing
// lacks it (no NVIDIA driver here).
std::optional<nvidia_gpu> given_gpu(const runner_settings& settings);

// The variables a runner starts with over the judge's environment (see runner_settings::gpu), for
// the GPU given_gpu found for it.
std::vector<std::pair<std::string, std::string>> runner_environment(const runner_settings& settings,
                                                                    const std::optional<nvidia_gpu>& gpu);

// The runner for `source`: `base`, with Python set up for a .py file. Throws environment_error
// when no Python can judge it.
runner_settings runner_for(const runner_settings& base, const std::filesystem::path& source);

// The reports of `tests` (positions in spec.tests), all `skipped` until judged.
std::vector<test_report> pending_reports(const problem_spec& spec, const std::vector<int>& tests);

// What the judge holds back from the runner: the outputs each test's call must give (judge and
// profile jobs), and those of each data set of each timed test, in the order of the time job.
using expected_by_test = std::map<int, named_arrays>;
using expected_by_data_set = std::map<int, std::vector<named_arrays>>;

// A reference that crashed while several of its requests were under way: those requests, one of
// which crashed it (write_references' callers run each alone to name its test).
struct reference_crash_among : problem_error {
    reference_crash_among(const std::string& message, std::vector<std::size_t> running)
        : problem_error(message), running(std::move(running)) {}
    std::vector<std::size_t> running;  // indices into the job's requests, in order
};

// One runner process for one library. Started first thing, so that it opens the device while the
// judge compiles; then loaded, then given jobs in turn.
class runner_session {
public:
    runner_session(const problem_spec& spec, const runner_settings& settings);
    ~runner_session();

    // Waits for the runner to open the device (host backends have none and return at once).
    const std::optional<device_message>& device();
    const std::optional<std::string>& no_device();
    bool rejected() const { return rejected_; }

    // Loads the library; the device's memory ceiling is measured first when `peak` is given.
    // Returns why it failed, if it did; rejected() then says whether the file cannot be called as
    // solve at all (a Python file's syntax or signature: a compile error).
    std::optional<std::string> load(const std::filesystem::path& library, const std::string& function,
                                    std::optional<double>* peak = nullptr);

    // Where judge and time jobs say which test they are on; none (the default): nowhere.
    void report_progress(progress_hook hook) { progress_ = std::move(hook); }

    // Judges tests or times them; fills the matching reports. False once the runner has ended.
    // Every call's outputs are compared here, against `expected`, which the runner never sees.
    bool judge(const judge_job& job, const expected_by_test& expected, std::vector<test_report>& reports);
    bool time(const time_job& job, const expected_by_data_set& expected, std::vector<test_report>& reports);
    // Before the library is loaded: the harness's own share of a timed call's cycle on the judge's
    // clock, test by test, with `job`'s tests timed on a solve that does nothing (time_job::empty).
    // Once the library is loaded the runner's clocks are in the submission's process, which can stop
    // or move them; then time() holds each median to the rest of its cycle (impossible_time).
    void calibrate(time_job job);
    // Calls one test's solve twice, the second time for a profiler (see the profile job).
    bool profile(const test_job& job, const expected_by_test& expected, std::vector<test_report>& reports);

    // The outputs of the calls that gave a wrong answer, by test (for likely causes).
    const std::map<int, named_arrays>& wrong_outputs() const { return wrong_outputs_; }
    // Has the reference write expected outputs; throws problem_error when it fails, naming the test
    // it failed on where that is known (reference_crash_among where one of several crashed it).
    void write_references(const reference_job& job);

    // Ends the job in progress at once, from any thread: the runner is killed and not waited
    // for, and the job ends as `interrupted` (work that is no longer wanted).
    void interrupt();

    // Tells the runner that no job follows and waits up to `limit_s` for it, and the launcher it
    // runs behind, to exit (ncu writes its report then); killed after that.
    child_exit finish(double limit_s);

    // Ends the runner (killed: every job has ended) and keeps what it leaves that the judge keeps
    // (a Python file's Triton kernels); the destructor does it if it is not done before.
    void close();

    // What the runner (and the submission in it) printed, last lines.
    std::string output_tail() const;

private:
    struct job_end;
    struct call_checks;
    // The runner's first line; for Python, the interpreter it starts ahead (stage_ and work_ set).
    hello_job hello_for(const problem_spec& spec, const runner_settings& settings) const;
    bool judge_calls(const char* kind, const nlohmann::json& body, const expected_by_test& expected, bool stop,
                     progress_step::stage stage, double wall_limit_ms, int calls_per_test,
                     std::vector<test_report>& reports);
    bool check_outputs(int test, const named_arrays& expected, const std::string& where, bool stop,
                       call_checks& checks);
    // Sends `line` and reads its messages until `done`: no gap longer than `idle_limit_s`, no call
    // longer than the time limit from its start, and the whole job within `job_limit_s`.
    // `turns`: a job of solve's calls, held to the runner's turns (see take_turn); none: no turns.
    struct turn_rules {
        std::set<int> tests;   // the job's: a line about another is forged
        double before_ms = 0;  // the harness's allowance before a call
    };
    job_end run_job(const nlohmann::json& line, const std::function<void(const nlohmann::json&)>& on_event,
                    double idle_limit_s, double job_limit_s, const turn_rules* turns = nullptr);
    turn_rules rules_for(const std::vector<int>& tests) const;
    bool take_turn(const std::string& kind, const nlohmann::json& body, bool was_compiling, const turn_rules& rules,
                   job_end& end) const;
    bool follow_calls(const std::string& kind, const nlohmann::json& body, job_end& end);
    // A line to the runner; one it does not take in time kills it (see job_end::how::deaf).
    bool send(const nlohmann::json& line);
    double time_job_limit_s(const time_job& job) const;  // the longest an honest time job takes
    void check_call_time(int test, call_checks& checks) const;
    void note_cycle(int test, call_checks& checks) const;
    void acknowledge_outputs(int test, bool go, call_checks& checks);
    void acknowledge(bool go);
    bool record_end(const job_end& end, std::vector<test_report>& reports);
    std::string timeout_message(const job_end& end) const;
    void announce(const nlohmann::json& message, const std::vector<test_report>& reports,
                  progress_step::stage stage) const;
    std::optional<std::string> reference_failure(const job_end& end, std::uintmax_t printed) const;
    void stop(bool kill);
    double time_limit_ms() const { return spec_.time_limit_ms * settings_.time_limit_scale; }
    double call_limit_s() const { return (time_limit_ms() + settings_.call_slack_ms) / 1000; }
    bool compiles_kernels() const;      // a Python file that imports triton: its first calls compile
    double first_call_limit_s() const;  // an untimed first call's (see event::compiling)

    const problem_spec& spec_;
    runner_settings settings_;
    temp_dir work_;
    std::unique_ptr<runner_process> process_;
    int interrupt_fd_ = -1;  // an eventfd: written by interrupt(), polled beside the channel
    bool deaf_ = false;      // a line did not go through during the current job
    bool rejected_ = false;
    // What the runner loaded: the judge's staged copy, whose bytes are what ran (kept kernels are
    // kept under its hash, never under a learner's file that may have changed since).
    std::filesystem::path loaded_;
    received_kernels kernels_;       // Triton's, as the runner sent them (kept_kernels.hpp)
    double post_call_allowance_ms_;  // the runner's own work between a call's return and its outputs
    double compile_left_s_;          // for first calls that compile, in all of this session's jobs
    bool device_read_ = false;
    std::optional<device_message> device_;
    std::optional<std::string> no_device_;
    std::string output_;
    progress_hook progress_;
    std::map<int, named_arrays> wrong_outputs_;
    std::map<int, double> harness_cycle_ms_;          // calibrate's, by test
    bool code_loaded_ = false;                        // a library (the submission's, a reference's) was loaded
    std::optional<std::string> calibration_failure_;  // the runner ended in calibrate: load says so
    // Sandboxed runners: what the runner sees of the judge's files (see runner_policy in runner/session.cpp).
    std::optional<temp_dir> stage_;
};

// The test that decides a list's verdict: the first that did not pass (one left skipped before any
// failed means the runner stopped without a word). None when every test passed.
const test_report* deciding_test(const std::vector<test_report>& tests);
test_report* deciding_test(std::vector<test_report>& tests);

}  // namespace gpujudge
