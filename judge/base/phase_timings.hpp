#pragma once
// Where a command's time went (compile, references, judged calls, timed runs...), printed with
// --timings or -v: a learner waits for every verdict, so the judge's own time is watched too.
#include <chrono>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gpujudge {

class phase_timings {
public:
    phase_timings() = default;
    phase_timings(const phase_timings& other) : phases_(other.phases_) {}
    phase_timings& operator=(const phase_timings& other) {
        phases_ = other.phases_;
        return *this;
    }

    // Runs `work` and adds its wall time to `phase`.
    template <typename Work>
    auto measure(const std::string& phase, Work&& work) {
        const auto start = std::chrono::steady_clock::now();
        struct adder {
            phase_timings* self;
            const std::string& phase;
            std::chrono::steady_clock::time_point start;
            ~adder() {
                self->add(phase, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            }
        } on_exit{this, phase, start};
        return work();
    }
    void add(const std::string& phase, double seconds);
    // "compile 1.42 s, references 0.31 s (in parallel), ..."; phases in the order first seen.
    std::string summary() const;

private:
    mutable std::mutex mutex_;
    std::vector<std::pair<std::string, double>> phases_;
};

}  // namespace gpujudge
