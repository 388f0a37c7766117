#include "device/device_info.hpp"

#include "device/cuda_check.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

std::string cuda_version_name(int version) {
    return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

// CUDA reports a missing driver and an old one alike as "CUDA driver version is insufficient".
std::string device_failure(cudaError_t error) {
    int driver_version = 0, runtime_version = 0;
    cudaDriverGetVersion(&driver_version);
    cudaRuntimeGetVersion(&runtime_version);
    return describe_device_failure(error, driver_version, runtime_version);
}

}  // namespace

std::string describe_device_failure(cudaError_t error, int driver_version, int runtime_version) {
    if (driver_version == 0)
        return "no NVIDIA driver found: install the NVIDIA driver (https://www.nvidia.com/drivers) to judge on a GPU";
    if (error == cudaErrorInsufficientDriver && driver_version < runtime_version)
        return fmt::format(
            "the NVIDIA driver is too old: it supports CUDA {}, gpujudge's CUDA runtime needs {}; update the driver",
            cuda_version_name(driver_version), cuda_version_name(runtime_version));
    if (error == cudaErrorNoDevice) return "no CUDA device found";
    return describe_cuda_error(error);
}

std::variant<device_info, std::string> open_device() {
    int count = 0;
    if (const cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess) return device_failure(error);
    if (count == 0) return std::string("no CUDA device found");
    cudaDeviceProp props{};
    if (const cudaError_t error = cudaGetDeviceProperties(&props, 0); error != cudaSuccess)
        return describe_cuda_error(error);
    // Create the context now, so its cost stays out of the first test.
    if (const cudaError_t error = cudaFree(nullptr); error != cudaSuccess) return describe_cuda_error(error);
    device_info info;
    info.name = props.name;
    for (int i = 0; i < 16; ++i) info.uuid += fmt::format("{:02x}", static_cast<unsigned char>(props.uuid.bytes[i]));
    info.cc_major = props.major;
    info.cc_minor = props.minor;
    info.sm_count = props.multiProcessorCount;
    info.l2_bytes = props.l2CacheSize;
    info.memory_bytes = static_cast<long long>(props.totalGlobalMem);
    return info;
}

}  // namespace gpujudge
