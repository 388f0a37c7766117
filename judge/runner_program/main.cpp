// gpujudge-runner: the child process that loads a submission (or a problem's reference) and calls
// it. The judge starts one per submission (and again after a crash) in its own process group; it
// reads the hello line and jobs from the control pipe and answers with sealed messages on the
// result channel. Nothing here trusts solve to return, to keep the device healthy, or to stay quiet.
#include "base/hex_text.hpp"
#include "base/machine_memory.hpp"
#include "buffers/memory_space.hpp"
#include "calls/c_function.hpp"
#include "calls/shared_library.hpp"
#include "calls/solve_signals.hpp"
#include "checks/test_data.hpp"
#include "device/device_info.hpp"
#include "process/solve_alone.hpp"
#include "runner/channel.hpp"
#include "runner/copy_on_write_inputs.hpp"
#include "runner/kept_kernels.hpp"
#include "runner/protocol.hpp"
#include "runner/shared_outputs.hpp"
#include "runner_program/become_user.hpp"
#include "runner_program/python_host.hpp"
#include "runs/judged_call.hpp"
#include "runs/peak_bandwidth.hpp"
#include "spec/output_file.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace gpujudge {

namespace {

// Sealed JSON lines on the result channel, flushed at once: the judge acts on each as it arrives.
class channel {
public:
    explicit channel(const channel_key& key) : file_(fdopen(kChannelFd, "w")), sealer_(key) {}
    void send(const nlohmann::json& message) {
        std::lock_guard<std::mutex> lock(mutex_);  // reference requests report from several threads
        const std::string line = sealer_.seal(message);
        std::fwrite(line.data(), 1, line.size(), file_);
        std::fflush(file_);
    }

private:
    std::mutex mutex_;
    FILE* file_;
    message_sealer sealer_;
};

// Job lines from the control pipe; nothing once the judge closes it.
class control {
public:
    control() : file_(fdopen(kControlFd, "r")) {}
    bool ok() const { return file_ != nullptr; }
    // The judge's answer to the outputs just shipped: go on, or stop. A closed pipe stops.
    bool acknowledged() {
        const auto line = next();
        if (!line) return false;
        if (line->at("job") != job::ack) throw std::runtime_error("the judge sent a job where an ack was due");
        return line->at("body").get<outputs_ack>().go;
    }
    std::optional<nlohmann::json> next() {
        char* line = nullptr;
        std::size_t capacity = 0;
        const ssize_t length = getline(&line, &capacity, file_);
        std::optional<nlohmann::json> job;
        if (length > 0) job = nlohmann::json::parse(std::string(line, static_cast<std::size_t>(length)));
        std::free(line);
        return job;
    }

private:
    FILE* file_;
};

// Tells the judge when solve is running (its time limit holds only then), and times the call.
// With a space to profile in, the call (and nothing around it) is what a profiler collects.
class announcer final : public call_listener {
public:
    announcer(channel& out, int test, memory_space* profiled = nullptr) : out_(out), test_(test), profiled_(profiled) {}
    void before_call() override {
        out_.send(message_of(event::call, nlohmann::json{{"test", test_}}));
        if (profiled_) profiled_->set_profiling(true);
        start_ = std::chrono::steady_clock::now();
    }
    void after_finish() override {
        wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
        // What solve printed (a kernel's printf too, written at the synchronisation) reaches the judge's
        // output file now: the judge may end the runner at any moment after the call, with no exit's flush.
        // A thread of solve's may hold stdout's lock and keep the runner here: what it writes meanwhile is
        // found by the output sample read as the clock stopped (poison_watch.hpp: late_write).
        std::fflush(stdout);
        if (profiled_) profiled_->set_profiling(false);
        out_.send(message_of(event::returned, nlohmann::json{{"test", test_}}));
    }
    double wall_ms = 0;

private:
    channel& out_;
    int test_;
    memory_space* profiled_;
    std::chrono::steady_clock::time_point start_;
};

// Ships a call's outputs to the judge through the shared window and waits for its answer.
class judge_sink final : public output_sink {
public:
    judge_sink(const problem_spec& spec, memory_space& space, channel& out, control& in, const shared_outputs& window,
               int test)
        : spec_(spec), space_(space), out_(out), in_(in), window_(window), test_(test) {}
    bool ship(const buffer_set& buffers) override {
        window_.write(spec_, space_, buffers);
        out_.send(message_of(event::outputs, nlohmann::json{{"test", test_}}));
        return in_.acknowledged();
    }

private:
    const problem_spec& spec_;
    memory_space& space_;
    channel& out_;
    control& in_;
    const shared_outputs& window_;
    int test_;
};

struct session {
    problem_spec spec;
    memory_space& space;
    channel& out;
    control& in;
    shared_outputs window;
    std::optional<shared_library> library;
    python_host* python;  // a runner started for Python (hello_job::python), else null
    std::unique_ptr<solve_function> function;

    const test_spec& test(int index) const { return spec.tests.at(static_cast<std::size_t>(index)); }
    judge_sink sink(int test) { return {spec, space, out, in, window, test}; }
};

// solve from a Python file, or why it cannot be called: a compile error for the learner.
std::optional<std::string> load_python(session& s, const load_job& job, runner_backend backend) {
    auto loaded = s.python->load(job.library, s.spec, nlohmann::json(backend).get<std::string>());
    if (auto* why = std::get_if<std::string>(&loaded)) return *why;
    s.function = std::make_unique<python_function>(std::get<python_entry>(loaded), s.spec);
    return std::nullopt;
}

// Runs `work` on a thread of its own that may start nothing (process/solve_alone.hpp; the filter
// ends with the thread), and rethrows what it threw: a reference's load and calls, so that nothing of
// a reference can write its outputs after they were checked and cached.
template <class Work>
void on_an_alone_thread(Work&& work) {
    std::exception_ptr failed;
    std::thread([&] {
        try {
            make_this_thread_run_alone();
            work();
        } catch (...) {
            failed = std::current_exception();
        }
    }).join();
    if (failed) std::rethrow_exception(failed);
}

void load(session& s, const load_job& job, runner_backend backend) {
    // Measured before any submission code is in the process.
    if (job.measure_peak && backend == runner_backend::device)
        s.out.send(message_of(event::peak, nlohmann::json{{"gbps", measure_peak_bandwidth_gbps(s.space)}}));
    keep_signal_handlers();  // put back after each call (harness/calls/solve_signals.hpp)
    if (s.python && !job.library.empty()) {
        if (auto why = load_python(s, job, backend)) {
            s.out.send(message_of(event::rejected, nlohmann::json{{"message", *why}}));
            s.out.send(message_of(event::done));
            return;
        }
    } else if (!job.library.empty()) {  // an empty library: the judge asked only for the ceiling
        if (job.alone) {                // before the library's constructors run
            s.space.before_solve_alone();
            make_solve_run_alone();
        }
        if (job.function == "reference")  // its constructors start nothing either
            on_an_alone_thread([&] { s.library.emplace(job.library); });
        else
            s.library.emplace(job.library);
        s.function = std::make_unique<c_function>(s.library->symbol(job.function), s.spec.params);
    }
    s.out.send(message_of(event::loaded));
    s.out.send(message_of(event::done));
}

// Tells the judge that a call that compiles runs (the judge holds it to the compile limit).
class compile_announcer final : public call_listener {
public:
    compile_announcer(channel& out, int test) : out_(out), test_(test) {}
    void before_call() override { out_.send(message_of(event::compiling, nlohmann::json{{"test", test_}})); }
    void after_finish() override { out_.send(message_of(event::returned, nlohmann::json{{"test", test_}})); }

private:
    channel& out_;
    int test_;
};

// Marks what solve prints during its warm-up call (below): between a line before it and one after,
// so that a learner who sees each print twice knows which call printed which. Nothing stays when it
// prints nothing and returns: the first line is cut off again (one that ends the process keeps it,
// which tells where it ended). Only where the output is a file (the judge's).
class warm_up_label {
public:
    explicit warm_up_label(const std::string& test) {
        std::fflush(stdout);
        before_ = lseek(STDOUT_FILENO, 0, SEEK_CUR);
        if (before_ < 0) return;
        say(fmt::format(
            "gpujudge: solve's warm-up call on the shapes of test '{}' begins (untimed, its outputs not judged)\n",
            test));
        labelled_ = lseek(STDOUT_FILENO, 0, SEEK_CUR);
    }
    ~warm_up_label() {
        if (before_ < 0) return;
        std::fflush(stdout);
        if (lseek(STDOUT_FILENO, 0, SEEK_CUR) != labelled_)
            say("gpujudge: solve's warm-up call ends\n");
        else if (ftruncate(STDOUT_FILENO, before_) == 0)
            lseek(STDOUT_FILENO, before_, SEEK_SET);
    }
    warm_up_label(const warm_up_label&) = delete;
    warm_up_label& operator=(const warm_up_label&) = delete;

private:
    static void say(const std::string& line) {
        if (write(STDOUT_FILENO, line.data(), line.size()) < 0) return;  // best effort: a label only
    }
    off_t before_ = -1;
    off_t labelled_ = -1;
};

// A call of a test's shapes before the judged ones, for a solve that compiles on its first call
// (Triton's JIT): compile time is not the call's, and the time limit holds the call alone. On other
// data than the judged calls' (another seed): an answer worked out here is no answer there.
void compile_first(session& s, int index, const data_set_spec& judged) {
    if (!s.function->compiles_on_first_call()) return;
    const test_spec& test = s.test(index);
    const input_set inputs(s.spec, s.space, test, {judged.seed ^ 0x9e3779b97f4a7c15ULL, {}});
    buffer_set buffers(s.spec, s.space, test.scalars);
    buffers.load(inputs);
    compile_announcer announcer(s.out, index);
    const warm_up_label label(test.name);
    call_solve(*s.function, buffers, test.scalars, s.space, announcer);
}

// A test's inputs, made once; then solve's calls on them, each checked and its outputs shipped.
struct prepared_test {
    prepared_test(session& s, const test_job& item)
        : test(s.test(item.test)), inputs(s.spec, s.space, test, item.data) {
        compile_first(s, item.test, item.data);
    }

    // Loads `buffers` from the inputs, calls solve, checks its buffers once it returned, and ships
    // the outputs to the judge.
    call_outcome call(session& s, buffer_set& buffers, announcer& listener, output_sink& judge) const {
        buffers.load(inputs);
        call_outcome outcome = call_solve(*s.function, buffers, test.scalars, s.space, listener);
        if (outcome.result == verdict::accepted) outcome = check_buffers(s.spec, buffers, test.scalars, inputs);
        if (outcome.result == verdict::accepted && !judge.ship(buffers)) outcome = stopped_by_judge();
        return outcome;
    }

    const test_spec& test;
    const input_set inputs;
};

// Ends a job that called solve: Triton's kernels compiled so far go out for the judge to keep
// (kept_kernels.hpp) before `done`, after which the judge may end the runner at any moment.
void end_calls_job(session& s) {
    if (s.python && s.python->kernels_sent())
        if (const auto files = read_kernel_files(*s.python->kernels_sent()))
            for (const kernel_file& file : *files) s.out.send(message_of(event::kernel_file, file));
    s.out.send(message_of(event::done));
}

// Returns false when the device context is lost: the session cannot go on.
bool run_judge_job(session& s, const judge_job& job) {
    for (const test_job& item : job.tests) {
        s.out.send(message_of(event::begin, nlohmann::json{{"test", item.test}}));
        const prepared_test prepared(s, item);
        buffer_set buffers(s.spec, s.space, prepared.test.scalars, !job.exact_buffers);
        announcer listener(s.out, item.test);
        judge_sink judge = s.sink(item.test);
        const call_outcome outcome = prepared.call(s, buffers, listener, judge);
        s.out.send(message_of(event::result, test_result_message{item.test, outcome.result, outcome.message,
                                                                 listener.wall_ms, std::nullopt, outcome.cause}));
        if (outcome.context_lost) return false;
        if (job.stop_at_failure && outcome.result != verdict::accepted) break;
    }
    end_calls_job(s);
    return true;
}

// One test's call twice, both checked: a warm-up (lazy module loading and first-call allocations
// stay out of the profile; a wrong answer is not worth profiling), then the call a profiler
// collects (ncu --profile-from-start off sees solve's kernels alone).
bool run_profile_job(session& s, const test_job& item) {
    s.out.send(message_of(event::begin, nlohmann::json{{"test", item.test}}));
    const prepared_test prepared(s, item);
    buffer_set buffers(s.spec, s.space, prepared.test.scalars);
    call_outcome outcome;
    double wall_ms = 0;
    judge_sink judge = s.sink(item.test);
    for (const bool profiled : {false, true}) {
        announcer listener(s.out, item.test, profiled ? &s.space : nullptr);
        outcome = prepared.call(s, buffers, listener, judge);
        wall_ms = listener.wall_ms;
        if (outcome.result != verdict::accepted) break;
    }
    s.out.send(message_of(event::result, test_result_message{item.test, outcome.result, outcome.message, wall_ms,
                                                             std::nullopt, std::nullopt}));
    if (outcome.context_lost) return false;
    s.out.send(message_of(event::done));
    return true;
}

timing_summary summary_of(const timed_result& timed) {
    return {timed.stats,
            median_of(timed.readings, &clock_reading::event_ms),
            median_of(timed.readings, &clock_reading::host_ms),
            timed.host_overhead_ms,
            median_of(timed.readings, &clock_reading::solve_ms),
            timed.host_clock,
            timed.blocking,
            timed.unblocked_because,
            timed.solve_charge_ms};
}

// A solve that does nothing: the harness's own share of a timed call, which the judge measures before
// the library is loaded (time_job::empty).
class empty_solve final : public solve_function {
public:
    std::optional<std::string> run(const std::vector<void*>&, const scalar_values&) const override {
        return std::nullopt;
    }
};

bool run_time_job(session& s, const time_job& job) {
    empty_solve nothing;
    if (!job.empty && !s.function) throw std::runtime_error("a time job before the library is loaded");
    solve_function& solve = job.empty ? nothing : *s.function;
    timed_settings settings = job.settings;
    for (const timed_test_job& item : job.tests) {
        s.out.send(message_of(event::begin, nlohmann::json{{"test", item.test}}));
        const test_spec& test = s.test(item.test);
        std::vector<input_set> data_sets;
        data_sets.reserve(item.data_sets.size());
        for (const timed_data_job& data : item.data_sets) data_sets.emplace_back(s.spec, s.space, test, data.data);
        if (!item.data_sets.empty() && !job.empty) compile_first(s, item.test, item.data_sets.front().data);
        announcer listener(s.out, item.test);
        judge_sink judge = s.sink(item.test);
        solve.set_timed(true);
        const timed_result timed =
            run_timed(s.spec, s.space, solve, test, data_sets, settings, job.order_seed, listener, judge);
        solve.set_timed(false);
        settings.warmup_s = std::min(settings.warmup_s, settings.later_warmup_s);
        s.out.send(message_of(event::result, test_result_message{item.test, timed.outcome.result, timed.outcome.message,
                                                                 0, summary_of(timed), timed.outcome.cause}));
        if (timed.outcome.context_lost) return false;
        if (timed.outcome.result != verdict::accepted) break;
    }
    end_calls_job(s);
    return true;
}

// Seconds since the last lap (or the start).
class stopwatch {
public:
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        return seconds;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Host memory that concurrent reference requests may hold at once: a quarter of the machine's.
std::size_t reference_memory_budget() {
    const auto physical = physical_memory_bytes();
    return physical ? static_cast<std::size_t>(*physical / 4) : std::size_t{4} << 30;
}

// A reference's exception message as one line of at most 1000 bytes, control characters as \xNN:
// it reaches the terminal as the problem's error, and a message is the reference's own text.
std::string one_line(const std::string& text) {
    constexpr std::size_t kShown = 1000;
    std::string line;
    for (std::size_t i = 0; i < text.size() && i < kShown; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        line += byte < 0x20 || byte == 0x7f ? fmt::format("\\x{:02x}", byte) : std::string(1, text[i]);
    }
    if (text.size() > kShown) line += fmt::format("... ({} bytes more)", text.size() - kShown);
    return line;
}

// The reference's own exceptions, told apart from the harness's: the problem's author reads them.
named_arrays call_reference(session& s, const scalar_values& scalars, const std::map<std::string, void*>& inputs) {
    try {
        return run_reference_on_host(s.spec, scalars, inputs, *s.function);
    } catch (const reference_fault&) {  // the harness's finding: an element left or overrun
        throw;
    } catch (const std::exception& error) {
        throw std::runtime_error(fmt::format("the reference threw an exception: {}", one_line(error.what())));
    } catch (...) {
        throw std::runtime_error("the reference threw an exception that is not a std::exception");
    }
}

// call_reference alone: a thread the reference left running wrote its outputs after they were
// checked, and the judge cached that.
named_arrays call_reference_alone(session& s, const scalar_values& scalars,
                                  const std::map<std::string, void*>& inputs) {
    named_arrays outputs;
    on_an_alone_thread([&] { outputs = call_reference(s, scalars, inputs); });
    return outputs;
}

// A reference request's failure as its problem's author reads it, naming the test; the harness out
// of memory says how much (the reference's own exceptions come wrapped, whatever they are).
std::string request_failure(const test_spec& test, std::size_t bytes, const std::exception& error) {
    if (dynamic_cast<const std::bad_alloc*>(&error))
        return fmt::format("test '{}': out of host memory for its buffers ({:.1f} GB of inputs and outputs)", test.name,
                           static_cast<double>(bytes) / 1e9);
    return fmt::format("test '{}': {}", test.name, error.what());
}

using data_key = std::pair<int, std::uint64_t>;  // test, seed

// exit() called by a reference in one thread runs the process's exit handlers while the other
// reference threads still run: they can crash on what those handlers destroy, and the judge would
// read a signal instead of the exit. While references run, exit ends the process at once with its
// status (on_exit handlers registered last run first, before any static destructor).
std::atomic<bool> g_references_running{false};
void end_at_once_in_references(int status, void*) {
    if (g_references_running) _exit(status);
}

// The inputs that several requests vary (a test's data and its variants), generated once and
// mapped copy-on-write by each request.
std::map<data_key, std::unique_ptr<copy_on_write_inputs>> shared_inputs(const session& s, const reference_job& job) {
    std::map<data_key, int> members;
    for (const auto& request : job.requests) ++members[{request.test, request.data.seed}];
    std::map<data_key, std::unique_ptr<copy_on_write_inputs>> shared;
    for (const auto& [key, count] : members)
        if (count > 1)
            shared.emplace(key, std::make_unique<copy_on_write_inputs>(s.spec, s.test(key.first), key.second));
    return shared;
}

// Host memory that the requests in flight hold, kept under a budget (one request always runs).
class memory_gate {
public:
    explicit memory_gate(std::size_t budget) : budget_(budget) {}
    void enter(std::size_t bytes) {
        std::unique_lock<std::mutex> lock(mutex_);
        freed_.wait(lock, [&] { return in_flight_ == 0 || in_flight_ + bytes <= budget_; });
        in_flight_ += bytes;
    }
    void leave(std::size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        in_flight_ -= bytes;
        freed_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable freed_;
    std::size_t in_flight_ = 0;
    std::size_t budget_;
};

// Independent reference runs on all cores, as many at once as the memory budget allows. Requests
// on the same test and seed share one generation of the inputs.
void run_reference_job(session& s, const reference_job& job) {
    stopwatch generation;
    const std::map<data_key, std::unique_ptr<copy_on_write_inputs>> shared = shared_inputs(s, job);
    const double shared_s = generation.lap();
    g_references_running = true;
    memory_gate gate(reference_memory_budget());
    std::mutex mutex;
    std::optional<std::pair<std::size_t, std::string>> failure;  // that of the first request that failed
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next++) < job.requests.size();) {
            const reference_request& request = job.requests[i];
            const test_spec& test = s.test(request.test);
            const std::size_t bytes = s.spec.buffer_bytes(test.scalars);
            gate.enter(bytes);
            try {
                // Where a request's time goes, for the judge's debug log (-v).
                stopwatch watch;
                // A request alone generates its inputs here, under the gate; mapped as the shared ones are,
                // each between unreadable pages, after a pad (copy_on_write_inputs.hpp).
                const auto base = shared.find({request.test, request.data.seed});
                std::optional<copy_on_write_inputs> own;
                const copy_on_write_inputs& generated =
                    base != shared.end() ? *base->second : own.emplace(s.spec, test, request.data.seed);
                const copy_on_write_inputs::view view(generated, s.spec, request.data);
                const std::map<std::string, void*>& inputs = view.pointers();
                const double inputs_s = watch.lap();
                const scalar_values& scalars = request.scalars.empty() ? test.scalars : request.scalars;
                // The judge names the test of a reference that crashes or hangs from these.
                s.out.send(message_of(event::started, nlohmann::json{{"request", i}}));
                named_arrays outputs = call_reference_alone(s, scalars, inputs);
                const double reference_s = watch.lap();
                write_outputs(request.expected_file, s.spec, outputs);
                s.out.send(message_of(event::written, nlohmann::json{{"request", i},
                                                                     {"shared_s", shared_s},
                                                                     {"inputs_s", inputs_s},
                                                                     {"reference_s", reference_s},
                                                                     {"write_s", watch.lap()}}));
            } catch (const std::exception& error) {
                std::lock_guard<std::mutex> lock(mutex);
                // The first in request order, not in time: the same message every run.
                if (!failure || i < failure->first) failure = {i, request_failure(test, bytes, error)};
            }
            gate.leave(bytes);
        }
    };
    std::vector<std::thread> threads;
    const unsigned count = std::max(
        1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(job.requests.size())));
    for (unsigned t = 0; t < count; ++t) threads.emplace_back(work);
    for (auto& thread : threads) thread.join();
    g_references_running = false;
    // What the reference printed reaches the judge's output file now, not when the runner is killed:
    // the judge refuses a reference that prints.
    std::fflush(nullptr);
    if (failure) throw std::runtime_error(failure->second);
    s.out.send(message_of(event::done));
}

std::unique_ptr<memory_space> open_space(runner_backend backend, channel& out) {
    if (backend == runner_backend::host) return make_host_space();
    auto device = open_device();
    if (auto* reason = std::get_if<std::string>(&device)) {
        out.send(message_of(event::no_device, nlohmann::json{{"message", *reason}}));
        return nullptr;
    }
    const auto& info = std::get<device_info>(device);
    out.send(message_of(event::device, device_message{info.name, info.uuid, info.arch(), info.sm_count, info.l2_bytes,
                                                      info.memory_bytes}));
    return make_device_space();
}

// Whether RLIMIT_NPROC counts this sandbox's tasks alone: in a user namespace of its own (not the
// host's, whose uid_map maps all 4294967295 ids), on Linux 5.14 or later. Otherwise the cap would
// count every task of the judge's user, and a busy grader's runners would fail to start threads.
bool tasks_counted_per_namespace() {
    utsname names{};
    int major = 0, minor = 0;
    const bool kernel = uname(&names) == 0 && std::sscanf(names.release, "%d.%d", &major, &minor) == 2 &&
                        (major > 5 || (major == 5 && minor >= 14));
    unsigned long inside = 0, outside = 0, count = 0;
    FILE* map = std::fopen("/proc/self/uid_map", "r");
    const bool read = map && std::fscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3;
    if (map) std::fclose(map);
    return kernel && read && count != 4294967295ul;
}

// The sandbox's cap on threads and processes (hello_job::max_tasks), before any code of the
// submission's, Python's or the driver's runs: a fork bomb's fork fails with EAGAIN there.
void cap_tasks(std::uint64_t max_tasks) {
    if (max_tasks == 0 || !tasks_counted_per_namespace()) return;
    const rlimit limit{max_tasks, max_tasks};
    if (setrlimit(RLIMIT_NPROC, &limit) != 0)
        throw std::runtime_error(fmt::format("setrlimit(RLIMIT_NPROC, {}): {}", max_tasks, std::strerror(errno)));
}

// The problem as the judge parsed it, in its folder: the sandbox may not show a problem.yaml that
// links out of the folder, nor the text the judge read if it was edited since.
problem_spec problem_of(const hello_job& hello) {
    const auto text = bytes_of_hex(hello.problem_yaml_hex);
    if (!text) throw std::runtime_error("the judge's hello holds no problem.yaml in hex");
    problem_spec spec = parse_problem(*text, hello.problem_dir + "/problem.yaml");
    spec.dir = hello.problem_dir;
    return spec;
}

void serve(const hello_job& hello, control& in, channel& out) {
    cap_tasks(hello.max_tasks);
    // A runner started for Python starts the interpreter and its imports before the device is
    // opened, so that the two overlap.
    std::optional<python_host> python;
    if (const python_load& p = hello.python; !p.library.empty())
        python.emplace(python_setup{p.library, p.home, p.path, p.cache_dir, p.prepared, p.kept_kernels, p.sends_kernels,
                                    p.shown, p.imports_triton});
    auto space = open_space(hello.backend, out);
    if (!space) return;
    session s{problem_of(hello),           *space, out, in, shared_outputs::attach(kOutputsFd), std::nullopt,
              python ? &*python : nullptr, nullptr};
    while (auto line = in.next()) {
        const std::string kind = line->at("job").get<std::string>();
        const nlohmann::json& body = line->at("body");
        if (kind == job::load)
            load(s, body.get<load_job>(), hello.backend);
        else if (kind == job::judge) {
            if (!run_judge_job(s, body.get<judge_job>())) return;
        } else if (kind == job::time) {
            if (!run_time_job(s, body.get<time_job>())) return;
        } else if (kind == job::profile) {
            if (!run_profile_job(s, body.get<test_job>())) return;
        } else if (kind == job::reference)
            run_reference_job(s, body.get<reference_job>());
        else
            throw std::runtime_error(fmt::format("unknown job kind '{}'", kind));
    }
}

}  // namespace

}  // namespace gpujudge

int main(int argc, char** argv) {
    using namespace gpujudge;
    if (argc >= 4 && std::strcmp(argv[1], "--become") == 0 && std::strcmp(argv[3], "--") == 0) {
        const std::string why = become_user_and_run(argv[2], argv + 4);
        std::fprintf(stderr, "gpujudge-runner --become %s: %s\n", argv[2], why.c_str());
        return 127;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);          // die with the judge, whatever happens to it
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a pipe: each line out as it is printed, as on a terminal
    on_exit(end_at_once_in_references, nullptr);
    control in;
    std::optional<nlohmann::json> first;
    std::optional<channel_key> key;
    try {
        if (in.ok() && (first = in.next())) key = channel_key::from_hex(first->at("key").get<std::string>());
    } catch (const std::exception&) {
    }
    if (!key) {
        std::fprintf(stderr, "usage: gpujudge-runner, started by gpujudge (control pipe on fd 4, channel on fd 3)\n");
        return 2;
    }
    channel out(*key);
    try {
        serve(first->get<hello_job>(), in, out);
        return 0;
    } catch (const std::exception& error) {
        out.send(message_of(event::fatal, nlohmann::json{{"message", error.what()}}));
        return 1;
    }
}
