#include "device_info.hpp"

#include "cuda_check.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::variant<device_info, std::string> open_device() {
    int count = 0;
    if (const cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess)
        return describe_cuda_error(error);
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
