#pragma once
// SIGINT, SIGTERM and SIGHUP (Ctrl-C, Slurm's scancel or time limit, a closed terminal) end gpujudge
// cleanly: its children's process groups are killed and its temporary folders (expected outputs,
// sandboxes, compiles) removed before it dies of the signal. Without this, each left its folders in
// /tmp and a compile ran on as an orphan: the children run in process groups of their own, which a
// terminal's Ctrl-C does not reach.
#include <functional>
#include <string>

namespace gpujudge {

// Call first in main, before any thread starts: every thread inherits the blocked signals, and one
// thread of its own waits for them. Children start with none blocked (see child_process).
void handle_stop_signals();

// What a stop signal's ending writes on stderr first (after stdout is flushed), while set: what a
// user needs to know of work that goes on without gpujudge (a Slurm job array). Empty: nothing.
void set_stop_message(std::string message);

// The next stop signal calls `stop` instead (serve: a graceful shutdown); one after that ends
// gpujudge as above. `stop` runs on the signal thread.
void on_next_stop_signal(std::function<void()> stop);

}  // namespace gpujudge
