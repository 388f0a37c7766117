#pragma once
// Which clock times a run, and whether its calls may be held back until queued.
//
// CUDA events bracket what solve launches on the default stream; work it leaves running on a
// private stream escapes them, but not the host clock read after a device-wide synchronise. The
// choice is made per run, from medians or from how many calls broke a rule, so that the few calls the
// host scheduler delays do not switch clocks, and every sample of a run is timed the same way.
#include <string>
#include <vector>

namespace gpujudge {

struct clock_reading {
    double event_ms = 0;
    // Host time that covers all of the call's device work, less an empty call's: from the release
    // of held-back work (just after solve returns) or, unblocked, from before the call, until
    // every stream is synchronised.
    double host_ms = 0;
    double solve_ms = 0;  // host time inside solve, from its call to its return
    // The judge's own launch of the hold in the same call, on the host: one launch with the CPU's
    // caches as cold as solve finds them (shipped outputs and input copies between calls).
    double launch_ms = 0;
    // The CPU time the runner's other threads used from before the call's clocks start to after its
    // synchronise: CUDA's thread for host functions runs the submission's code there, before the
    // release as well as after it. Not between calls, where the driver's own threads work while the
    // judge handles large outputs.
    double other_threads_ms = 0;
};

// The median of one of the readings' clocks, e.g. median_of(readings, &clock_reading::event_ms).
double median_of(const std::vector<clock_reading>& readings, double clock_reading::*clock);

// A run hides work when its median host time exceeds its median event time by more than a slack.
// Unblocked, 5 % of the latter plus 5 µs (wake-up costs an empty call does not have). Held back, the
// host clock starts at the release, with the events' own work, and honest held runs read at most
// 0.6 % more on it than on the events (solutions/measured-h100.json): 2 % plus 1 µs. The looser slack
// there let a kernel on a private stream, released beside a short pad on the default stream, run
// past the stop event unseen for 5 µs and more.
bool work_hid_from_events(const std::vector<clock_reading>& readings, bool held_back);

// Each call's time: its event time, or when the run hid work, the later of its two clocks.
std::vector<double> call_times(const std::vector<clock_reading>& readings, bool host_clock);

// Each call's time in a held-back run: its event time and solve's host time past the allowance below,
// or for a call that broke a rule of held-back calls (may_hold_back), the most it can have taken: its
// events, solve's host time, the other threads' CPU and the host clock's time past the events. A
// minority of calls that cheat then rank above the honest ones instead of pulling the median down.
//
// While held, no kernel of solve's can run: the hold takes every SM before solve is called. What can
// still run is the copy engines and the CPU: solve may copy its inputs to the host, compute there and
// copy the answer back (solutions/max_subarray_sum/host_computes_during_solve.cu). So solve's host time
// is allowed the run's median event time and one launch, the hold's own median launch time (6-8 µs on
// the H100), and what a call spends past that is added to its time: a call counts max(events, solve's
// host time less one launch). A launch is what a one-kernel solve spends on the host (4.5 µs back to
// back on the H100, 10-13 µs with the caches cold): kernels shorter than their launch are timed by their
// events, and host work can stand in for at most the events' time and one launch. Charged, not a reason
// to time the run unblocked, as it was: a kernel at the old allowance (rms_normalization's cooperative
// launch, 13.2 µs on the host for 6.4 µs) read 6.5 µs in one run and 18.5 µs in the next, launch latency
// in, and a pad that lengthened a tiny kernel, and so its allowance, made it read faster.
std::vector<double> held_call_times(const std::vector<clock_reading>& readings);

// The median call's charge for solve's host time past its allowance (see held_call_times).
double solve_charge_ms(const std::vector<clock_reading>& readings);

// Holding work back until solve returns keeps the host's launch latency out of the events. A run may be
// held back only while no work hides from the events, and no other thread of the runner works during a
// call: a host function solve queues on a stream of its own runs on CUDA's thread after solve returns,
// through the judge's event record and the hold's release, which no clock reads, and a kernel that waits
// for its answer would time only the rest (2 us of other threads' CPU per call is allowed: the driver's
// own). Each call is judged by both rules at once, and the run is held back while fewer than half its
// calls break either and every other-threads reading could be taken: a rule's median alone would let a
// run break each rule in a different minority of its calls. Otherwise the run is timed unblocked, from
// before the call.
bool may_hold_back(const std::vector<clock_reading>& readings);

// Why may_hold_back is false for these readings: the rule whose median failed, or the calls that broke
// each rule.
std::string why_not_held_back(const std::vector<clock_reading>& readings);

// Readings between a run's stop tests, and the fewest whose medians may end holding back.
constexpr int kReadingsToChooseClock = 16;

// Whether a warm-up's readings end holding back. Fewer than kReadingsToChooseClock leave it to the
// first stop test: a later size warms up for 0.05 s, as few as 3 calls, and on the H100 the host
// clock's median of 3 calls (171.5 us against the events' 154.4 us, with the hold's old 273 us release,
// see blocking_kernel.cu) switched a row sum's whole run to unblocked timing, launch latency included.
bool warm_up_stops_holding_back(const std::vector<clock_reading>& readings);

}  // namespace gpujudge
