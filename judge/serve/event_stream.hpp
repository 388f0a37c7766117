#pragma once
// The events of one judgement on their way to one client: the judge's thread pushes them, the
// client's connection thread takes them and writes them out as server-sent events. Either side may
// go first and either may go away: a client that left marks the stream abandoned, which a queued
// judgement checks before it starts.
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

namespace gpujudge {

struct server_event {
    std::string name;  // "queued", "started", "progress", "result", "error"
    nlohmann::json data;
};

// "event: <name>\ndata: <json on one line>\n\n"
std::string sse_text(const server_event& event);

class event_stream {
public:
    void push(server_event event);
    // No event comes after this one.
    void close();
    // The next event, waiting up to `timeout`; nullopt when none came in time, or when the stream is
    // closed and drained (finished() then says so).
    std::optional<server_event> next(std::chrono::milliseconds timeout);
    bool finished() const;

    // The client went away: nobody reads what comes next.
    void abandon();
    bool abandoned() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable arrived_;
    std::deque<server_event> events_;
    bool closed_ = false;
    bool abandoned_ = false;
};

}  // namespace gpujudge
