#pragma once
// A judged solve runs alone. Once the runner has opened the device, and before it loads a compiled
// submission, it gives up for good starting threads and processes and arming timers: a seccomp
// filter on every thread it has (also against filters of its own and io_uring). Nothing of the
// submission's can then work between the judge's calls, outside every clock: not a thread that
// watches the reused buffer sets and answers before the timed call, not a helper process that maps
// the buffers through CUDA IPC, not a timer's signal handler. A call that tries ends the process
// with SIGSYS, which the judge names (kSolveAloneRule). The runner also blocks every signal from
// solve's return until it has put back the signal handlers it had before the library (main.cpp),
// so no handler of the submission's runs inside the harness either.
// Python solutions keep threads (torch's pools, Triton's compiler processes); the hold's poison
// check (harness/device/blocking_kernel.hpp) covers answers written before their timed calls.
namespace gpujudge {

// Throws std::runtime_error when the filter cannot be loaded.
void make_solve_run_alone();

// What a learner whose runner ended with SIGSYS is told, after "stopped by signal SIGSYS during solve: ".
extern const char* const kSolveAloneRule;

// The same filter on the calling thread alone, for a call on a thread of its own (the filter ends
// with the thread): a reference's (runner_program/main.cpp). Throws as make_solve_run_alone does.
void make_this_thread_run_alone();

// What a problem's author whose reference ended its runner with SIGSYS is told.
extern const char* const kReferenceAloneRule;

}  // namespace gpujudge
