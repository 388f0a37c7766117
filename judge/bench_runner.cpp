#include "runner_modes.hpp"

#include <stdexcept>

namespace gpujudge {

int run_bench(const runner_job&, const problem_spec&, memory_space&, const message_sink&) {
    throw std::runtime_error("bench mode is not built yet");
}

}  // namespace gpujudge
