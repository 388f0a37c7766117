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
std::optional<double> device_ceiling(runner_session& session, const std::optional<device_message>& device,
                                     judge_context& context);

}  // namespace gpujudge
