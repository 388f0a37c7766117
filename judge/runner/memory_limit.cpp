#include "runner/memory_limit.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpujudge {

namespace {

constexpr std::uintmax_t kBaseBytes = std::uintmax_t{8} << 30;

std::uintmax_t largest_buffers_bytes(const problem_spec& spec) {
    std::uintmax_t bytes = 0;
    for (const auto& test : spec.tests) bytes = std::max<std::uintmax_t>(bytes, spec.buffer_bytes(test.scalars));
    return bytes;
}

}  // namespace

std::uintmax_t runner_memory_limit(const problem_spec& spec) {
    if (const char* text = std::getenv("GPUJUDGE_RUNNER_MEMORY_LIMIT_MB"); text && *text) {
        char* end = nullptr;
        const unsigned long long mib = std::strtoull(text, &end, 10);
        // strtoull takes "-1" as its largest value.
        if (std::isdigit(static_cast<unsigned char>(text[0])) && *end == '\0' && mib < (1ull << 40))
            return static_cast<std::uintmax_t>(mib) << 20;
        spdlog::warn("GPUJUDGE_RUNNER_MEMORY_LIMIT_MB='{}' is not a whole number of MiB; using the default", text);
    }
    return kBaseBytes + 4 * largest_buffers_bytes(spec);
}

std::string over_memory_message(std::uintmax_t held_bytes, std::uintmax_t limit_bytes) {
    return fmt::format(
        "the submission's processes held {} MiB of host memory, more than the {} MiB they may hold "
        "($GPUJUDGE_RUNNER_MEMORY_LIMIT_MB), and were killed: free what solve allocates on the host, or keep "
        "its data on the GPU",
        held_bytes >> 20, limit_bytes >> 20);
}

}  // namespace gpujudge
