#pragma once
// The host memory a submission's runner may hold, all its processes together (the judge watches it:
// runner_process::watch_memory). A solve that leaks or hoards host memory is stopped with a message
// before it takes the machine, and the judge with it.
#include "spec/problem_spec.hpp"

#include <cstdint>
#include <string>

namespace gpujudge {

// $GPUJUDGE_RUNNER_MEMORY_LIMIT_MB (whole MiB; 0: no limit), else 8 GiB for CUDA's context, PyTorch
// and Triton, plus four times the largest test's buffers: the runner's copies of its inputs and
// outputs, and the memory files it shares with the judge, which are counted where mapped and where held.
std::uintmax_t runner_memory_limit(const problem_spec& spec);

// The runtime error of a runner stopped at the limit, having been seen holding `held_bytes`.
std::string over_memory_message(std::uintmax_t held_bytes, std::uintmax_t limit_bytes);

}  // namespace gpujudge
