#pragma once
// The GPU the runner found, or why none could be used.
#include <string>
#include <variant>

namespace gpujudge {

struct device_info {
    std::string name;
    std::string uuid;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    long long l2_bytes = 0;
    long long memory_bytes = 0;

    std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

// Device 0 with a context created, or the reason there is none ("no CUDA-capable device is detected").
std::variant<device_info, std::string> open_device();

}  // namespace gpujudge
