#pragma once
// What the judge and a runner process say to each other, typed on both sides. Jobs go judge →
// runner as JSON lines on the control pipe; messages come back sealed (runner/channel.hpp) on the
// result channel, so that nothing the submission prints, or writes into any descriptor, passes
// for either. A runner session: hello, then (device runners) the device message, a load job, then
// any number of judge and time jobs (or one reference job, or one profile job: a test_job whose
// call runs twice, the second time between cudaProfilerStart and Stop), until the judge closes the
// pipe. Every job ends with `done`.
//
// The runner holds nothing worth forging: no expected output, no verdict logic. After each call
// it writes the outputs into the shared window (shared_outputs.hpp, kOutputsFd), sends `outputs`
// and waits for the judge's `ack`, which says whether to go on. What the runner reports (its
// results, its timings) is data the judge checks, never belief.
#include "buffers/data_set.hpp"
#include "checks/likely_cause.hpp"
#include "checks/verdict.hpp"
#include "runner/kept_kernels.hpp"
#include "runs/timed_runs.hpp"
#include "timing/sample_stats.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

constexpr int kChannelFd = 3;  // runner → judge: sealed messages
constexpr int kControlFd = 4;  // judge → runner: the hello line, then jobs
constexpr int kOutputsFd = 5;  // shared: the outputs window (shared_outputs.hpp)

enum class runner_backend { device, host };

// ---- judge → runner ----

// How the runner starts Python for a .py submission (runner_program/python_host.hpp); an empty
// library: none.
struct python_load {
    std::string library, home;
    std::vector<std::string> path;
    std::string cache_dir;  // writable: Triton's kernels
    std::string prepared;   // read-only: what the judge prepared for this Python (toolkit/python_prepared.hpp), or ""
    std::string kept_kernels;     // read-only: Triton's kernels from a run of the same file (kept_kernels.hpp), or ""
    bool sends_kernels = false;   // the runner sends its Triton kernels after each job (event::kernel_file)
    std::string shown;            // the learner's path of the file, for messages and tracebacks
    bool imports_triton = false;  // the file names triton: imported ahead too
};

// With `python`, the runner starts the interpreter and imports torch (seconds) as it opens the
// device, while the judge compiles and runs the references; the load job then finds them ready.
struct hello_job {
    std::string key;  // channel_key::hex()
    runner_backend backend = runner_backend::device;
    std::string problem_dir;
    // Its text as the judge parsed it, in hex (JSON strings are UTF-8; a problem.yaml need not be): the
    // runner may not see the file's target.
    std::string problem_yaml_hex;
    python_load python;
    // RLIMIT_NPROC the runner sets on itself before it loads anything, 0: none (not sandboxed).
    // Inside the sandbox's user namespace the kernel counts the sandbox's own threads and
    // processes against it; set before bwrap, it would count every task of the judge's user.
    std::uint64_t max_tasks = 0;
};

// What to load: a submission ("solve") or a problem's reference ("reference"), a shared library or,
// in a runner started for Python (hello_job::python), a Python file. Before it, the device's memory ceiling is measured
// when asked: no submission code is loaded yet.
struct load_job {
    std::string library;
    std::string function = "solve";
    bool measure_peak = false;
    bool alone = false;  // solve runs alone: no threads, processes or timers (process/solve_alone.hpp)
};

struct test_job {
    int test = 0;
    data_set_spec data;
};

struct judge_job {
    std::vector<test_job> tests;
    bool stop_at_failure = true;  // a failed test ends the job: the verdict is the first failure's
    // solve's buffers as exact allocations, without guards: a read past one lands outside every
    // allocation, where compute-sanitizer sees it (sanitize runs; guards hide it in allocated memory)
    bool exact_buffers = false;
};

struct timed_data_job {
    data_set_spec data;
};

struct timed_test_job {
    int test = 0;
    std::vector<timed_data_job> data_sets;
};

struct time_job {
    std::vector<timed_test_job> tests;
    timed_settings settings;
    std::uint64_t order_seed = 0;  // secret: which data set and buffers each call gets
    // Calibration, before the library is loaded: solve is a call that does nothing, its outputs are
    // shipped unread (see runner_session::calibrate).
    bool empty = false;
};

struct reference_request {
    int test = 0;
    data_set_spec data;
    std::string expected_file;  // where to write the outputs
    scalar_values scalars;      // the test's inputs, called with these scalars; empty: the test's own
};

struct reference_job {
    std::vector<reference_request> requests;
};

// The judge's answer to an `outputs` message: whether the runner goes on with the job.
struct outputs_ack {
    bool go = true;
};

namespace job {
constexpr const char* load = "load";            // load_job
constexpr const char* judge = "judge";          // judge_job
constexpr const char* time = "time";            // time_job
constexpr const char* profile = "profile";      // test_job
constexpr const char* reference = "reference";  // reference_job
constexpr const char* ack = "ack";              // outputs_ack, inside a job only
}  // namespace job

// ---- runner → judge ----

struct device_message {
    std::string name, uuid, arch;
    int sm_count = 0;
    long long l2_bytes = 0, memory_bytes = 0;
};

// What a timed run measured, in milliseconds (see timed_runs.hpp and clock_choice.hpp).
struct timing_summary {
    sample_stats stats;
    double event_median_ms = 0, host_median_ms = 0, host_overhead_ms = 0;
    double solve_median_ms = 0;  // host time inside solve, less an empty call's
    bool host_clock = false, blocking = true;
    std::string unblocked_because;  // empty while held back
    double solve_charge_ms = 0;     // held back: the median call's charge for solve's host time
};

struct test_result_message {
    int test = 0;
    verdict result = verdict::accepted;
    std::string message;
    double wall_ms = 0;
    std::optional<timing_summary> timing;  // time jobs only
    std::optional<cause_kind> cause;       // the likely cause the message names, if any
};

namespace event {
constexpr const char* device = "device";            // device_message
constexpr const char* no_device = "no_device";      // {message}
constexpr const char* peak = "peak";                // {gbps}: the measured memory ceiling
constexpr const char* loaded = "loaded";            // the library is loaded: jobs may follow
constexpr const char* rejected = "rejected";        // {message}: the file cannot be called as solve (a compile error)
constexpr const char* begin = "begin";              // {test}: preparing the test's data
constexpr const char* call = "call";                // {test}: solve is being called: the time limit runs
constexpr const char* compiling = "compiling";      // {test}: a first call that compiles (a JIT): its own limit
constexpr const char* returned = "returned";        // {test}: solve returned and the device is synchronised
constexpr const char* outputs = "outputs";          // {test}: the call's outputs are in the window; an ack follows
constexpr const char* result = "result";            // test_result_message
constexpr const char* started = "started";          // {request}: the reference is called for a request
constexpr const char* written = "written";          // {request}: a reference request's outputs are on disk
constexpr const char* kernel_file = "kernel_file";  // kernel_file: one of Triton's kernel files, before `done`
constexpr const char* fatal = "fatal";              // {message}: the runner cannot go on
constexpr const char* done = "done";                // the job is finished
}  // namespace event

// A job line: {"job": <kind>, "body": <the job>}.
template <typename Job>
nlohmann::json job_line(const char* kind, const Job& job) {
    return {{"job", kind}, {"body", job}};
}

// A message: {"event": <kind>, "body": <the fields>}.
template <typename Body>
nlohmann::json message_of(const char* kind, const Body& body) {
    return {{"event", kind}, {"body", body}};
}
inline nlohmann::json message_of(const char* kind) {
    return {{"event", kind}, {"body", nlohmann::json::object()}};
}

void to_json(nlohmann::json& out, const runner_backend& backend);
void from_json(const nlohmann::json& in, runner_backend& backend);  // throws on an unknown name
void to_json(nlohmann::json& out, const element_change& change);
void from_json(const nlohmann::json& in, element_change& change);
void to_json(nlohmann::json& out, const data_set_spec& data);
void from_json(const nlohmann::json& in, data_set_spec& data);
void to_json(nlohmann::json& out, const timed_settings& settings);
void from_json(const nlohmann::json& in, timed_settings& settings);
void to_json(nlohmann::json& out, const sample_stats& stats);
void from_json(const nlohmann::json& in, sample_stats& stats);
void to_json(nlohmann::json& out, const verdict& v);
void from_json(const nlohmann::json& in, verdict& v);
void to_json(nlohmann::json& out, const cause_kind& kind);
void from_json(const nlohmann::json& in, cause_kind& kind);
void to_json(nlohmann::json& out, const timing_summary& timing);
void from_json(const nlohmann::json& in, timing_summary& timing);
void to_json(nlohmann::json& out, const test_result_message& message);
// {path, hex}: the bytes hex-encoded; a path is_kept_kernel_path refuses, or bad hex, throws.
void to_json(nlohmann::json& out, const kernel_file& file);
void from_json(const nlohmann::json& in, kernel_file& file);
void from_json(const nlohmann::json& in, test_result_message& message);

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(python_load, library, home, path, cache_dir, prepared, kept_kernels, sends_kernels,
                                   shown, imports_triton)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(hello_job, key, backend, problem_dir, problem_yaml_hex, python, max_tasks)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(load_job, library, function, measure_peak, alone)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(test_job, test, data)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(judge_job, tests, stop_at_failure, exact_buffers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(timed_data_job, data)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(outputs_ack, go)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(timed_test_job, test, data_sets)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(time_job, tests, settings, order_seed, empty)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(reference_request, test, data, expected_file, scalars)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(reference_job, requests)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(device_message, name, uuid, arch, sm_count, l2_bytes, memory_bytes)

}  // namespace gpujudge
