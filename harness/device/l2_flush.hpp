#pragma once
// Emptying the L2 cache before a timed call, so every call starts cold.
#include <cstddef>

namespace gpujudge {

// Reads num_bytes from d_data on the device (the legacy default stream) and discards them.
// Why a read after the flush's write: a write leaves the L2 full of dirty lines, and the timed
// kernel would pay for writing them back to memory (8-10 % of a 50-100M-float Reduction on an
// H100). Read lines are clean: evicting them costs nothing.
void read_through(const void* d_data, std::size_t num_bytes);

}  // namespace gpujudge
