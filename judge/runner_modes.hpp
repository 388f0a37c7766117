#pragma once
// The runner's timed mode, kept apart from its main so that it reads on its own.
#include "memory_space.hpp"
#include "problem_spec.hpp"
#include "runner_job.hpp"

#include <functional>

namespace gpujudge {

using message_sink = std::function<void(const nlohmann::json&)>;

int run_bench(const runner_job& job, const problem_spec& spec, memory_space& space, const message_sink& send);

}  // namespace gpujudge
