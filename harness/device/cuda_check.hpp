#pragma once
// Every CUDA runtime call goes through GJ_CUDA_CHECK, which throws with the call's text and place.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gpujudge {

class cuda_error : public std::runtime_error {
public:
    cuda_error(cudaError_t code, const char* call, const char* file, int line);
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

// "cudaErrorIllegalAddress: an illegal memory access was encountered"
std::string describe_cuda_error(cudaError_t code);

}  // namespace gpujudge

#define GJ_CUDA_CHECK(call)                                                                                 \
    do {                                                                                                    \
        const cudaError_t gj_status_ = (call);                                                              \
        if (gj_status_ != cudaSuccess) throw ::gpujudge::cuda_error(gj_status_, #call, __FILE__, __LINE__); \
    } while (false)
