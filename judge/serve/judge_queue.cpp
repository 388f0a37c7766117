#include "serve/judge_queue.hpp"

#include "serve/api/api_error.hpp"

namespace gpujudge {

namespace {

server_event progress_event(const progress_step& step) {
    static const char* const kStages[] = {"compiling", "references", "testing", "timing"};
    return {"progress",
            {{"stage", kStages[static_cast<int>(step.what)]},
             {"number", step.number},
             {"total", step.total},
             {"name", step.name},
             {"text", describe(step)}}};
}

// Runs the work; whatever escapes it becomes an error event rather than the end of the thread.
server_event run_guarded(const judge_work& work, const std::shared_ptr<event_stream>& events) {
    try {
        return work([events](const progress_step& step) { events->push(progress_event(step)); });
    } catch (...) {
        return {"error", current_error_reply().body};
    }
}

}  // namespace

judge_queue::judge_queue() : worker_([this] { work_through(); }) {}

judge_queue::~judge_queue() {
    stop();
    worker_.join();
}

std::shared_ptr<event_stream> judge_queue::enqueue(judge_work work) {
    auto events = std::make_shared<event_stream>();
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) {
        events->push({"error", {{"error", "stopping"}, {"message", "the server is stopping"}}});
        events->close();
        return events;
    }
    waiting_.push_back({std::move(work), events});
    tell_positions();
    wake_.notify_all();
    return events;
}

void judge_queue::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& left : waiting_) {
        left.events->push({"error", {{"error", "stopping"}, {"message", "the server is stopping"}}});
        left.events->close();
    }
    waiting_.clear();
    wake_.notify_all();
}

void judge_queue::tell_positions() {
    int ahead = busy_ ? 1 : 0;
    for (auto& waiting : waiting_) {
        if (waiting.events->abandoned()) continue;
        waiting.events->push({"queued", {{"ahead", ahead}}});
        ++ahead;
    }
}

void judge_queue::work_through() {
    for (;;) {
        entry next;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
            if (waiting_.empty()) return;  // stopping
            next = std::move(waiting_.front());
            waiting_.pop_front();
            if (next.events->abandoned()) {  // its client left while it waited
                next.events->close();
                continue;
            }
            busy_ = true;
            tell_positions();
        }
        next.events->push({"started", nlohmann::json::object()});
        next.events->push(run_guarded(next.work, next.events));
        next.events->close();
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;  // the next one's start tells the rest their places
    }
}

}  // namespace gpujudge
