#include "base/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace gpujudge {

std::string describe(const progress_step& step) {
    switch (step.what) {
        case progress_step::stage::compiling:  // one file, or one of many (validate)
            return step.total > 0 ? fmt::format("compiling {} of {}: {}", step.number, step.total, step.name)
                                  : "compiling";
        case progress_step::stage::references:
            return step.total > 0 ? fmt::format("checking problem {} of {}: {}", step.number, step.total, step.name)
                                  : "computing expected outputs";
        case progress_step::stage::testing:
            return fmt::format("test {} of {}: {}", step.number, step.total, step.name);
        case progress_step::stage::timing:
            return fmt::format("timing size {} of {}: {}", step.number, step.total, step.name);
        case progress_step::stage::profiling:
            return fmt::format("profiling with ncu: {}", step.name);
    }
    return "";
}

progress_line::progress_line(clock::time_point start, clock::duration delay) : start_(start), delay_(delay) {}

void progress_line::set(const progress_step& step) {
    step_ = step;
}

std::optional<std::string> progress_line::frame(clock::time_point now) {
    if (!step_ || now - start_ < delay_) return std::nullopt;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - start_).count();
    const std::string suffix = fmt::format(" ({} s)", seconds);
    std::string text = describe(*step_);
    if (text.size() + suffix.size() > kWidth) text.resize(kWidth - suffix.size());
    text += suffix;
    if (text == shown_) return std::nullopt;
    shown_ = text;
    return "\r" + text + "\x1b[K";
}

std::string progress_line::clear() {
    if (shown_.empty()) return "";
    shown_.clear();
    return "\r\x1b[K";
}

progress::progress(std::FILE* out, std::chrono::milliseconds delay)
    : out_(out), line_(progress_line::clock::now(), delay), drawer_([this] { draw_until_stopped(); }) {}

progress::~progress() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_one();
    drawer_.join();
    std::fputs(line_.clear().c_str(), out_);
    std::fflush(out_);
}

progress_hook progress::hook() {
    return [this](const progress_step& step) {
        std::lock_guard<std::mutex> lock(mutex_);
        line_.set(step);
    };
}

bool progress::wanted(std::FILE* out, bool json) {
    return !json && isatty(fileno(out));
}

void progress::draw_until_stopped() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
        if (const auto text = line_.frame(progress_line::clock::now())) {
            std::fputs(text->c_str(), out_);
            std::fflush(out_);
        }
    }
}

progress_scope::progress_scope(progress_hook& hook, bool json) : hook_(hook) {
    if (progress::wanted(stderr, json)) shown_.emplace(stderr);
    hook_ = shown_ ? shown_->hook() : nullptr;
}

progress_scope::~progress_scope() {
    hook_ = nullptr;
}  // the hook points into shown_, which goes next

}  // namespace gpujudge
