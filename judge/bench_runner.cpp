#include "c_function.hpp"
#include "peak_bandwidth.hpp"
#include "runner_modes.hpp"
#include "shared_library.hpp"
#include "timed_runs.hpp"

namespace gpujudge {

namespace {

// Sends "call"/"returned" around every timed call, so the judge's time limit holds for each.
class announcer final : public call_listener {
public:
    announcer(const message_sink& send, int test) : send_(send), test_(test) {}
    void before_call() override { send_({{"event", event::call}, {"test", test_}}); }
    void after_finish() override { send_({{"event", event::returned}, {"test", test_}}); }

private:
    const message_sink& send_;
    int test_;
};

timed_settings settings_from(const nlohmann::json& bench) {
    timed_settings settings;
    settings.data_sets = bench.value("data_sets", settings.data_sets);
    settings.slots = bench.value("slots", settings.slots);
    settings.warmup = bench.value("warmup", settings.warmup);
    settings.warmup_s = bench.value("warmup_s", settings.warmup_s);
    settings.min_samples = bench.value("min_samples", settings.min_samples);
    settings.max_samples = bench.value("max_samples", settings.max_samples);
    settings.min_time_s = bench.value("min_time_s", settings.min_time_s);
    settings.budget_s = bench.value("budget_s", settings.budget_s);
    settings.target_rse = bench.value("target_rse", settings.target_rse);
    return settings;
}

}  // namespace

int run_bench(const runner_job& job, const problem_spec& spec, memory_space& space, const message_sink& send) {
    if (job.bench.value("measure_peak", false) && job.backend == runner_backend::device)
        send({{"event", event::peak}, {"gbps", measure_peak_bandwidth_gbps(space)}});
    const shared_library reference_library(job.reference);
    const c_function reference(reference_library.symbol("reference"), spec.params);
    const shared_library solution_library(job.solution);
    const c_function solve(solution_library.symbol("solve"), spec.params);
    const timed_settings settings = settings_from(job.bench);
    for (const int index : job.tests) {
        const test_spec& test = spec.tests.at(static_cast<std::size_t>(index));
        send({{"event", event::begin}, {"test", index}});
        announcer announce(send, index);
        const timed_result timed = run_timed(spec, space, solve, reference, test, settings, announce);
        const sample_stats& s = timed.stats;
        send({{"event", event::result},
              {"test", index},
              {"verdict", to_string(timed.outcome.result)},
              {"message", timed.outcome.message},
              {"stats",
               {{"count", s.count}, {"median_ms", s.median}, {"mean_ms", s.mean}, {"min_ms", s.min},
                {"max_ms", s.max}, {"stddev_ms", s.stddev}, {"rse", s.rse},
                {"event_median_ms", median_of(timed.readings, &clock_reading::event_ms)},
                {"host_median_ms", median_of(timed.readings, &clock_reading::host_ms)}}},
              {"host_overhead_ms", timed.host_overhead_ms},
              {"host_clock", timed.host_clock},
              {"blocking", timed.blocking}});
        if (timed.outcome.context_lost) return 0;
    }
    send({{"event", event::done}});
    return 0;
}

}  // namespace gpujudge
