#include "base/machine_memory.hpp"

#include <unistd.h>

namespace gpujudge {

std::optional<std::uintmax_t> physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return std::nullopt;
    return static_cast<std::uintmax_t>(pages) * static_cast<std::uintmax_t>(page);
}

}  // namespace gpujudge
