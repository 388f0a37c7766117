#pragma once
// Progress on a terminal while the judge works ("compiling", "test 3 of 7", "timing size 2 of 3"):
// one line on stderr, drawn only once the work has lasted a second (quick work stays quiet) and
// erased before the report is printed. The judge only calls a hook; an empty hook is silence, which
// is what tests, --json and output that is not a terminal get.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace gpujudge {

struct progress_step {
    enum class stage { compiling, references, testing, timing, profiling };
    stage what = stage::compiling;
    int number = 0;    // the test in progress, from 1 (testing and timing)
    int total = 0;     // of how many
    std::string name;  // that test's name
};

using progress_hook = std::function<void(const progress_step&)>;

// Tells `hook` the step, if there is a hook: none is silence.
inline void tell(const progress_hook& hook, const progress_step& step) {
    if (hook) hook(step);
}

// "compiling", "computing expected outputs", "test 3 of 7: N = 1000", "timing size 2 of 3: N = 100000",
// "profiling with ncu: N = 100000";
// validate's "checking problem 2 of 18: softmax" and "compiling 40 of 131: naive.cu".
std::string describe(const progress_step& step);

// What the progress line shows when: nothing before `delay` has passed since `start`, then the
// step and the whole seconds elapsed, written again only when that text changes. No clock of its
// own, so that it is tested with made-up times.
class progress_line {
public:
    using clock = std::chrono::steady_clock;
    static constexpr std::size_t kWidth = 79;  // a longer line wraps, and "\r" no longer erases it

    progress_line(clock::time_point start, clock::duration delay);
    void set(const progress_step& step);
    // "\r<text>\x1b[K" to write at `now`; nullopt while too early or when the text is unchanged.
    std::optional<std::string> frame(clock::time_point now);
    // What erases the line; empty when nothing was drawn.
    std::string clear();

private:
    clock::time_point start_;
    clock::duration delay_;
    std::optional<progress_step> step_;
    std::string shown_;
};

// Draws a progress_line on `out` ten times a second from a thread of its own, until it goes.
class progress {
public:
    explicit progress(std::FILE* out, std::chrono::milliseconds delay = std::chrono::seconds(1));
    ~progress();  // erases the line
    // The hook captures this object, so it can neither be copied nor moved.
    progress(const progress&) = delete;
    progress& operator=(const progress&) = delete;

    progress_hook hook();
    // Whether to show progress at all: `out` is a terminal and the output is not --json.
    static bool wanted(std::FILE* out, bool json);

private:
    void draw_until_stopped();

    std::FILE* out_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    progress_line line_;
    std::thread drawer_;
};

// A command's progress while it lives: drawn on stderr where wanted (a terminal, not --json), its hook
// stored in `hook` (left empty otherwise) and taken back, the line erased, when it goes.
class progress_scope {
public:
    progress_scope(progress_hook& hook, bool json);
    ~progress_scope();
    progress_scope(const progress_scope&) = delete;
    progress_scope& operator=(const progress_scope&) = delete;

private:
    progress_hook& hook_;
    std::optional<progress> shown_;
};

}  // namespace gpujudge
