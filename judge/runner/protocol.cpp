#include "runner/protocol.hpp"

#include "base/hex_text.hpp"
#include "base/printable_text.hpp"

#include <stdexcept>

namespace gpujudge {

// Reading a message: a missing field is an error (at(), never value()), and an unknown name throws.

void to_json(nlohmann::json& out, const runner_backend& backend) {
    out = backend == runner_backend::host ? "host" : "device";
}
void from_json(const nlohmann::json& in, runner_backend& backend) {
    const std::string name = in.get<std::string>();
    if (name != "host" && name != "device") throw std::invalid_argument("unknown runner backend '" + name + "'");
    backend = name == "host" ? runner_backend::host : runner_backend::device;
}

void to_json(nlohmann::json& out, const element_change& c) {
    out = {{"param", c.param}, {"index", c.index}, {"bits", c.bits}};
}
void from_json(const nlohmann::json& in, element_change& c) {
    in.at("param").get_to(c.param);
    in.at("index").get_to(c.index);
    in.at("bits").get_to(c.bits);
}

void to_json(nlohmann::json& out, const data_set_spec& d) {
    out = {{"seed", d.seed}, {"changes", d.changes}};
}
void from_json(const nlohmann::json& in, data_set_spec& d) {
    in.at("seed").get_to(d.seed);
    in.at("changes").get_to(d.changes);
}

void to_json(nlohmann::json& out, const timed_settings& s) {
    out = {{"data_sets", s.data_sets},
           {"slots", s.slots},
           {"warmup", s.warmup},
           {"warmup_s", s.warmup_s},
           {"later_warmup_s", s.later_warmup_s},
           {"min_samples", s.min_samples},
           {"max_samples", s.max_samples},
           {"min_time_s", s.min_time_s},
           {"budget_s", s.budget_s},
           {"target_rse", s.target_rse}};
}
void from_json(const nlohmann::json& in, timed_settings& s) {
    in.at("data_sets").get_to(s.data_sets);
    in.at("slots").get_to(s.slots);
    in.at("warmup").get_to(s.warmup);
    in.at("warmup_s").get_to(s.warmup_s);
    in.at("later_warmup_s").get_to(s.later_warmup_s);
    in.at("min_samples").get_to(s.min_samples);
    in.at("max_samples").get_to(s.max_samples);
    in.at("min_time_s").get_to(s.min_time_s);
    in.at("budget_s").get_to(s.budget_s);
    in.at("target_rse").get_to(s.target_rse);
}

void to_json(nlohmann::json& out, const sample_stats& s) {
    out = {{"count", s.count}, {"median", s.median}, {"mean", s.mean}, {"min", s.min},
           {"max", s.max},     {"stddev", s.stddev}, {"rse", s.rse}};
}
void from_json(const nlohmann::json& in, sample_stats& s) {
    in.at("count").get_to(s.count);
    in.at("median").get_to(s.median);
    in.at("mean").get_to(s.mean);
    in.at("min").get_to(s.min);
    in.at("max").get_to(s.max);
    in.at("stddev").get_to(s.stddev);
    in.at("rse").get_to(s.rse);
}

void to_json(nlohmann::json& out, const verdict& v) {
    out = to_string(v);
}
void from_json(const nlohmann::json& in, verdict& v) {
    v = parse_verdict(in.get<std::string>());
}

void to_json(nlohmann::json& out, const cause_kind& kind) {
    out = to_string(kind);
}
void from_json(const nlohmann::json& in, cause_kind& kind) {
    const auto parsed = cause_kind_from_string(in.get<std::string>());
    if (!parsed) throw std::invalid_argument("unknown cause '" + in.get<std::string>() + "'");
    kind = *parsed;
}

void to_json(nlohmann::json& out, const timing_summary& t) {
    out = {{"stats", t.stats},
           {"event_median_ms", t.event_median_ms},
           {"host_median_ms", t.host_median_ms},
           {"host_overhead_ms", t.host_overhead_ms},
           {"solve_median_ms", t.solve_median_ms},
           {"host_clock", t.host_clock},
           {"blocking", t.blocking},
           {"unblocked_because", t.unblocked_because},
           {"solve_charge_ms", t.solve_charge_ms}};
}
void from_json(const nlohmann::json& in, timing_summary& t) {
    in.at("stats").get_to(t.stats);
    in.at("event_median_ms").get_to(t.event_median_ms);
    in.at("host_median_ms").get_to(t.host_median_ms);
    in.at("host_overhead_ms").get_to(t.host_overhead_ms);
    in.at("solve_median_ms").get_to(t.solve_median_ms);
    in.at("host_clock").get_to(t.host_clock);
    in.at("blocking").get_to(t.blocking);
    // Text from the runner's process, which a submission can write to: escaped where it enters the
    // judge (a red team's sealed line cleared the screen and drew a forged report).
    t.unblocked_because = printable_output(in.at("unblocked_because").get<std::string>());
    in.at("solve_charge_ms").get_to(t.solve_charge_ms);
}

void to_json(nlohmann::json& out, const test_result_message& m) {
    out = {{"test", m.test}, {"verdict", m.result}, {"message", m.message}, {"wall_ms", m.wall_ms}};
    if (m.timing) out["timing"] = *m.timing;
    if (m.cause) out["cause"] = *m.cause;
}
void from_json(const nlohmann::json& in, test_result_message& m) {
    in.at("test").get_to(m.test);
    in.at("verdict").get_to(m.result);
    m.message = printable_output(in.at("message").get<std::string>());  // as unblocked_because
    in.at("wall_ms").get_to(m.wall_ms);
    if (in.contains("timing")) m.timing = in.at("timing").get<timing_summary>();
    if (in.contains("cause")) m.cause = in.at("cause").get<cause_kind>();
}

void to_json(nlohmann::json& out, const kernel_file& file) {
    out = {{"path", file.path}, {"hex", hex_of(file.bytes)}};
}
void from_json(const nlohmann::json& in, kernel_file& file) {
    in.at("path").get_to(file.path);
    if (!is_kept_kernel_path(file.path)) throw std::invalid_argument("a kernel file's path is not one kept");
    auto bytes = bytes_of_hex(in.at("hex").get_ref<const std::string&>());
    if (!bytes) throw std::invalid_argument("a kernel file's bytes are not hex");
    file.bytes = std::move(*bytes);
}

}  // namespace gpujudge
