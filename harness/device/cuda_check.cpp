#include "device/cuda_check.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::string describe_cuda_error(cudaError_t code) {
    return fmt::format("{}: {}", cudaGetErrorName(code), cudaGetErrorString(code));
}

cuda_error::cuda_error(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(fmt::format("{}:{}: {} failed: {}", file, line, call, describe_cuda_error(code))),
      code_(code) {}

}  // namespace gpujudge
