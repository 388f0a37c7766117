#include "cuda_check.hpp"
#include "memory_space.hpp"

namespace gpujudge {

namespace {

class device_space final : public memory_space {
public:
    void* allocate(std::size_t bytes) override {
        void* pointer = nullptr;
        GJ_CUDA_CHECK(cudaMalloc(&pointer, bytes));
        return pointer;
    }
    void deallocate(void* pointer) noexcept override { cudaFree(pointer); }
    void upload(void* dst, const void* h_src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(dst, h_src, bytes, cudaMemcpyHostToDevice));
    }
    void download(void* h_dst, const void* src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(h_dst, src, bytes, cudaMemcpyDeviceToHost));
    }
    void copy(void* dst, const void* src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    }
    void fill(void* dst, unsigned char byte, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemset(dst, byte, bytes));
    }
    call_status finish_call() override {
        // cudaDeviceSynchronize waits for every stream, the submission's private ones included.
        const cudaError_t sync = cudaDeviceSynchronize();
        const cudaError_t last = cudaGetLastError();
        const cudaError_t error = sync != cudaSuccess ? sync : last;
        if (error == cudaSuccess) return {};
        call_status status;
        status.ok = false;
        status.error = describe_cuda_error(error);
        // A sticky error (a faulting kernel) poisons the context: every later call fails too.
        status.context_lost = cudaDeviceSynchronize() != cudaSuccess;
        return status;
    }
};

}  // namespace

std::unique_ptr<memory_space> make_device_space() { return std::make_unique<device_space>(); }

}  // namespace gpujudge
