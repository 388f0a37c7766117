#include "serve/event_stream.hpp"

#include "base/json_text.hpp"
#include "serve/api/api_error.hpp"

namespace gpujudge {

std::string sse_text(const server_event& event) {
    // JSON text escapes newlines inside strings, so the data is one line, as SSE requires.
    return "event: " + event.name + "\ndata: " + json_text(event.data) + "\n\n";
}

void event_stream::push(server_event event) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (closed_) return;
        events_.push_back(std::move(event));
    }
    arrived_.notify_all();
}

void event_stream::close() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
    }
    arrived_.notify_all();
}

std::optional<server_event> event_stream::next(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    arrived_.wait_for(lock, timeout, [this] { return !events_.empty() || closed_; });
    if (events_.empty()) return std::nullopt;
    server_event event = std::move(events_.front());
    events_.pop_front();
    return event;
}

bool event_stream::finished() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_ && events_.empty();
}

void event_stream::abandon() {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
}

bool event_stream::abandoned() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return abandoned_;
}

}  // namespace gpujudge
