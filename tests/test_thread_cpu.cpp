// The CPU time of the process's other threads (harness/thread_cpu.hpp), which keeps host work beside
// solve from being held back.
#include "thread_cpu.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace gpujudge;

namespace {

void spin_for(std::chrono::milliseconds span) {
    const auto end = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < end) {
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
    const thread_cpu_times idle_start = other_threads_cpu();
    spin_for(std::chrono::milliseconds(20));  // this thread's own work is not counted
    const thread_cpu_times idle_end = other_threads_cpu();
    CHECK(cpu_used_between(idle_start, idle_end) < 2.0);

    other.spin(std::chrono::milliseconds(20));
    const double used = cpu_used_between(idle_end, other_threads_cpu());
    CHECK(used >= 15.0);
    CHECK(used < 1000.0);
}

TEST_CASE("a thread that ended leaves the other threads' CPU time unknown; one that started counts whole",
          "[thread_cpu]") {
    const thread_cpu_times before{{10, 1.0}, {12, 2.0}};
    CHECK(cpu_used_between(before, {{10, 1.5}, {12, 2.25}}) == 0.75);
    CHECK(cpu_used_between(before, {{10, 1.5}, {11, 0.5}, {12, 2.0}}) == 1.0);
    CHECK(std::isinf(cpu_used_between(before, {{12, 2.0}})));
    CHECK(std::isinf(cpu_used_between(before, {{10, 1.0}})));
    CHECK(std::isinf(cpu_used_between(before, {})));

    std::atomic<bool> go{false};
    std::thread brief([&] {
        while (!go) {
        }
    });
    const thread_cpu_times with_it = other_threads_cpu();
    go = true;
    brief.join();
    CHECK(std::isinf(cpu_used_between(with_it, other_threads_cpu())));
}
