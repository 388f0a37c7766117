#include "base/phase_timings.hpp"

#include <fmt/format.h>

namespace gpujudge {

void phase_timings::add(const std::string& phase, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [name, total] : phases_)
        if (name == phase) {
            total += seconds;
            return;
        }
    phases_.emplace_back(phase, seconds);
}

std::string phase_timings::summary() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string text;
    for (const auto& [name, seconds] : phases_)
        text += fmt::format("{}{} {:.2f} s", text.empty() ? "" : ", ", name, seconds);
    return text.empty() ? "nothing timed" : text;
}

}  // namespace gpujudge
