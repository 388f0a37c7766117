// The CPU time of the process's other threads (harness/timing/thread_cpu.hpp), which keeps host work beside
// solve from being held back.
#include "timing/thread_cpu.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <ctime>
#include <future>
#include <mutex>
#include <thread>

using namespace gpujudge;

namespace {

// Spins until the calling thread has used `span` of CPU, however busy the machine is.
void spin_for(std::chrono::milliseconds span) {
    const auto used = [] {
        timespec now{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
    };
    const auto end = used() + span;
    while (used() < end) {
    }
}

// A thread that waits, then does what it is told once and waits again, until it is let go.
class helper {
public:
    helper() : thread_([this] { serve(); }) {}
    ~helper() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        ready_.notify_one();
        thread_.join();
    }
    void spin(std::chrono::milliseconds span) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            span_ = span;
            asked_ = true;
        }
        ready_.notify_one();
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !asked_; });
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            ready_.wait(lock, [this] { return asked_ || done_; });
            if (done_) return;
            spin_for(span_);
            asked_ = false;
            ready_.notify_one();
        }
    }

    std::mutex mutex_;
    std::condition_variable ready_;
    std::chrono::milliseconds span_{0};
    bool asked_ = false, done_ = false;
    std::thread thread_;  // last: it starts with everything above in place
};

}  // namespace

TEST_CASE("the other threads' CPU time counts what another thread computes, and only that", "[thread_cpu]") {
    helper other;
    other.spin(std::chrono::milliseconds(0));  // started and waiting
    const thread_cpu_reading idle_start = read_thread_cpu();
    CHECK(idle_start.listed);
    CHECK_FALSE(idle_start.others.empty());   // the helper, beside whatever threads the test runner has
    spin_for(std::chrono::milliseconds(20));  // this thread's own work is not counted
    const thread_cpu_reading idle_end = read_thread_cpu();
    CHECK(other_threads_used(idle_start, idle_end) < 2.0);

    other.spin(std::chrono::milliseconds(20));
    const double used = other_threads_used(idle_end, read_thread_cpu());
    CHECK(used >= 19.0);
    CHECK(used < 1000.0);
}

TEST_CASE("the other threads' CPU time is unknown where a thread ended or the threads could not be listed",
          "[thread_cpu]") {
    const thread_cpu_reading before{{{10, 1.0}, {12, 2.0}}, true};
    CHECK(other_threads_used(before, {{{10, 1.5}, {12, 2.25}}, true}) == 0.75);
    CHECK(other_threads_used(before, {{{10, 1.5}, {11, 0.5}, {12, 2.0}}, true}) == 1.0);  // 11 started since
    CHECK(std::isinf(other_threads_used(before, {{{12, 2.0}}, true})));                   // 10 ended
    CHECK(std::isinf(other_threads_used(before, {{{10, 1.0}}, true})));                   // 12 ended
    CHECK(std::isinf(other_threads_used(before, {{{10, 0.25}, {12, 2.0}}, true})));       // 10's id, a new thread
    CHECK(std::isinf(other_threads_used(before, {{}, false})));  // /proc/self/task could not be read
    CHECK(std::isinf(other_threads_used({{}, false}, before)));

    // The thread lives until the first reading is taken: on a loaded machine a thread that ran off on
    // its own had ended before it, and was never listed.
    std::promise<void> read;
    std::thread brief([seen = read.get_future()] { seen.wait(); });
    const thread_cpu_reading with_it = read_thread_cpu();
    read.set_value();
    brief.join();
    CHECK(std::isinf(other_threads_used(with_it, read_thread_cpu())));
}
