#include "runner_job.hpp"

namespace gpujudge {

NLOHMANN_JSON_SERIALIZE_ENUM(runner_mode, {{runner_mode::probe, "probe"},
                                           {runner_mode::judge, "judge"},
                                           {runner_mode::bench, "bench"}})
NLOHMANN_JSON_SERIALIZE_ENUM(runner_backend, {{runner_backend::device, "device"}, {runner_backend::host, "host"}})

void to_json(nlohmann::json& out, const runner_job& job) {
    out = {{"mode", job.mode},           {"backend", job.backend},     {"problem_dir", job.problem_dir},
           {"solution", job.solution},   {"reference", job.reference}, {"tests", job.tests},
           {"bench", job.bench}};
}

void from_json(const nlohmann::json& in, runner_job& job) {
    in.at("mode").get_to(job.mode);
    in.at("backend").get_to(job.backend);
    in.at("problem_dir").get_to(job.problem_dir);
    in.at("solution").get_to(job.solution);
    in.at("reference").get_to(job.reference);
    in.at("tests").get_to(job.tests);
    job.bench = in.value("bench", nlohmann::json{});
}

}  // namespace gpujudge
