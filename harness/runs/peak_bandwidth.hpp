#pragma once
// The device's own memory ceiling, measured: the faster of a large device-to-device copy (bytes
// read plus bytes written) and a read-only sweep. Reading alone streams faster than a copy, whose
// writes turn the memory bus around, so a reduction can beat the copy. Percentages of peak are
// relative to this, not to a datasheet. `space` is the device's: its timer times both.
#include "buffers/memory_space.hpp"

namespace gpujudge {

double measure_peak_bandwidth_gbps(memory_space& space);

}  // namespace gpujudge
