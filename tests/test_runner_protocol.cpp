// The runner protocol's messages, typed on both sides: every job and event body survives a round
// trip through its JSON line, and a line missing a field or naming an unknown value is an error,
// never a silent default.
#include "base/hex_text.hpp"
#include "runner/protocol.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

// `value` through JSON and back, then to JSON again: equal lines mean no field was lost.
template <typename T>
nlohmann::json round_trip(const T& value) {
    const nlohmann::json line = value;
    return nlohmann::json(nlohmann::json::parse(line.dump()).get<T>());
}

data_set_spec changed_data() {
    return {0x1234abcd5678ef90ULL, {{1, 42, 0x3f800000u}, {2, 7, 0xffffffffu}}};
}

}  // namespace

TEST_CASE("every job the judge sends survives its line", "[protocol]") {
    CHECK(round_trip(hello_job{"ab01", runner_backend::host, "/p", hex_of("title: x\n"), {}}) ==
          nlohmann::json(hello_job{"ab01", runner_backend::host, "/p", hex_of("title: x\n"), {}}));
    const hello_job python{"ab01",
                           runner_backend::device,
                           "/p",
                           hex_of("title: x\n"),
                           {"/usr/lib/libpython3.12.so",
                            "/usr",
                            {"/venv/site-packages"},
                            "/tmp/c",
                            "/cache/python-prepared/ab",
                            "/judge/kernels",
                            true,
                            "mine.py",
                            true}};
    CHECK(round_trip(python) == nlohmann::json(python));
    CHECK(round_trip(python).at("python").at("imports_triton") == true);
    const load_job load{"/judge/lib/x.so", "reference", true, true};
    CHECK(round_trip(load) == nlohmann::json(load));
    CHECK(round_trip(load).at("alone") == true);
    const judge_job judge{{{3, changed_data()}, {5, {}}}, false, true};
    CHECK(round_trip(judge) == nlohmann::json(judge));
    timed_settings settings;
    settings.budget_s = 1.25;
    settings.max_samples = 77;
    settings.later_warmup_s = 0.125;
    const time_job time{{{2, {{changed_data()}, {{9, {}}}}}}, settings, 0xfeedULL};
    CHECK(round_trip(time) == nlohmann::json(time));
    CHECK(round_trip(time).at("order_seed") == 0xfeedULL);
    CHECK(round_trip(time).at("settings").at("later_warmup_s") == 0.125);
    const reference_job reference{{{4, changed_data(), "/judge/out/r-0.out", {{"N", 10}}}}};
    CHECK(round_trip(reference) == nlohmann::json(reference));
    CHECK(round_trip(outputs_ack{false}).at("go") == false);
}

TEST_CASE("every event the runner sends survives its line", "[protocol]") {
    const device_message device{"H100", "GPU-1", "sm_90", 132, 50 << 20, 80LL << 30};
    CHECK(round_trip(device) == nlohmann::json(device));
    timing_summary timing;
    timing.stats.median = 0.131;
    timing.stats.count = 51;
    timing.host_clock = true;
    timing.solve_median_ms = 0.029;
    timing.solve_charge_ms = 0.0042;  // read back, or the line would differ
    timing.blocking = false;
    timing.unblocked_because = "call 2 waited on the device while held back";
    const test_result_message result{7, verdict::wrong_answer, "element 3", 1.5, timing, cause_kind::dropped_tail};
    const nlohmann::json again = round_trip(result);
    CHECK(again == nlohmann::json(result));
    CHECK(again.at("verdict") == "wrong_answer");
    CHECK_FALSE(
        round_trip(test_result_message{1, verdict::accepted, "", 0, std::nullopt, std::nullopt}).contains("timing"));
}

TEST_CASE("a line missing a field is an error, not a default", "[protocol]") {
    nlohmann::json load = load_job{"/x.so", "solve", false};
    load.erase("measure_peak");
    CHECK_THROWS(load.get<load_job>());
    nlohmann::json data = changed_data();
    data.erase("seed");
    CHECK_THROWS(data.get<data_set_spec>());
    nlohmann::json result = test_result_message{1, verdict::accepted, "", 0, std::nullopt, std::nullopt};
    result.erase("wall_ms");
    CHECK_THROWS(result.get<test_result_message>());
    nlohmann::json settings = timed_settings{};
    settings.erase("budget_s");
    CHECK_THROWS(settings.get<timed_settings>());
}

TEST_CASE("an unknown verdict or backend name is an error", "[protocol]") {
    CHECK_THROWS_WITH(nlohmann::json("passed").get<verdict>(), "unknown verdict 'passed'");
    nlohmann::json hello = hello_job{"ab", runner_backend::device, "/p", "", {}};
    hello["backend"] = "cloud";
    // nlohmann's enum mapping falls back to its first entry: the protocol's must not.
    CHECK_THROWS(hello.get<hello_job>());
}

TEST_CASE("job lines and messages have one shape", "[protocol]") {
    CHECK(job_line(job::ack, outputs_ack{true}) == nlohmann::json{{"job", "ack"}, {"body", {{"go", true}}}});
    CHECK(message_of(event::done) == nlohmann::json{{"event", "done"}, {"body", nlohmann::json::object()}});
    CHECK(message_of(event::call, nlohmann::json{{"test", 2}}).at("body").at("test") == 2);
}
