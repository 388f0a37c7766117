#pragma once
// The machine's physical memory, for what must fit in it: a test's buffers, references computed at
// once, compiles at once.
#include <cstdint>
#include <optional>

namespace gpujudge {

// Bytes of physical memory (sysconf); none where the system does not say.
std::optional<std::uintmax_t> physical_memory_bytes();

}  // namespace gpujudge
