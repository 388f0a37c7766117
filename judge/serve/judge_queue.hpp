#pragma once
// The judgements waiting for the GPU: judged one at a time, in order of arrival, by a thread of the
// queue's own, so that a client that leaves takes nothing down with it. Each waiting client is told
// how many judgements are ahead of it whenever that changes.
#include "base/progress.hpp"
#include "serve/event_stream.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace gpujudge {

// Judges, telling the hook its progress, and returns the last event: the result, or an error.
using judge_work = std::function<server_event(const progress_hook&)>;

class judge_queue {
public:
    judge_queue();
    ~judge_queue();  // stop(), then waits for the judgement in progress
    judge_queue(const judge_queue&) = delete;
    judge_queue& operator=(const judge_queue&) = delete;

    // The stream of the judgement's events: "queued" (with the judgements ahead), "started",
    // "progress"..., then the last event; closed after it.
    std::shared_ptr<event_stream> enqueue(judge_work work);
    // Ends every waiting judgement with an "error" event; the one in progress finishes.
    void stop();

private:
    struct entry {
        judge_work work;
        std::shared_ptr<event_stream> events;
    };
    void work_through();
    void tell_positions();  // with mutex_ held

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<entry> waiting_;
    bool busy_ = false;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace gpujudge
