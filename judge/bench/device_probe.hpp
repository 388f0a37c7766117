#pragma once
// What the judge takes from the device a runner opened, in one place for submit, bench and
// validate: nvcc's architecture, and the memory ceiling that timed figures are measured against.
#include "compile/compiler.hpp"
#include "references/context.hpp"
#include "runner/protocol.hpp"
#include "runner/session.hpp"

#include <optional>
#include <string>

namespace gpujudge {

// Waits for the session's runner to open the device, whose architecture becomes nvcc's. Returns why
// there is no device, when there is none.
std::optional<std::string> adopt_device(runner_session& session, compiler_settings& compiler);

// The device's memory ceiling: the assumed one on a host backend; else the history's; else measured
// by the runner before any submission code is in it (not under a launcher's tool: it would measure
// the tool), range-checked and kept. None when it is not known.
//
// Kept per physical GPU, by the UUID the runner reads from the device it opened (the runner's
// CUDA_VISIBLE_DEVICES changes which GPU that is, not its UUID), never by model name: a grade worker
// on GPU 1 measures GPU 1 and never takes GPU 0's figure for its own. Two GPUs of one model share a
// ceiling in principle, but their memory clocks, ECC mode or a fault can differ, and the % of ceiling
// a row shows must be of the GPU that judged it; each GPU's measurement costs about a second, once
// per history (a grade's judge.db). The baseline's figures are kept by UUID too (bench/timing.cpp).
std::optional<double> device_ceiling(runner_session& session, const std::optional<device_message>& device,
                                     judge_context& context);

}  // namespace gpujudge
