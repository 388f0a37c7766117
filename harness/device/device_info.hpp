#pragma once
// The GPU the runner found, or why none could be used.
#include <cuda_runtime_api.h>

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

// Device 0 with a context created, or the reason there is none (describe_device_failure).
std::variant<device_info, std::string> open_device();

// Why `error` leaves no device, in words a learner can act on: no driver at all (`driver_version` 0,
// as cudaDriverGetVersion reports it), a driver older than the runtime, no GPU, or CUDA's own words.
// Versions are CUDA's integers: 12020 is CUDA 12.2.
std::string describe_device_failure(cudaError_t error, int driver_version, int runtime_version);

}  // namespace gpujudge
