#pragma once
// Move-only owners of CUDA events, streams, device allocations and pinned host memory.
#include "device/cuda_check.hpp"

#include <cstddef>
#include <optional>
#include <utility>

namespace gpujudge {

class cuda_event {
public:
    cuda_event() { GJ_CUDA_CHECK(cudaEventCreate(&event_)); }
    ~cuda_event() {
        if (event_) cudaEventDestroy(event_);
    }
    cuda_event(cuda_event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
    cuda_event& operator=(cuda_event&&) = delete;
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;

    cudaEvent_t get() const { return event_; }
    // Milliseconds from `start` to this event, or nothing when either never completed because the
    // work between them failed: that failure is reported where the work is synchronised, not here.
    std::optional<float> elapsed_since(const cuda_event& start) const noexcept {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, start.event_, event_) != cudaSuccess) return std::nullopt;
        return ms;
    }

private:
    cudaEvent_t event_ = nullptr;
};

class cuda_stream {
public:
    explicit cuda_stream(unsigned flags) { GJ_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, flags)); }
    ~cuda_stream() {
        if (stream_) cudaStreamDestroy(stream_);
    }
    cuda_stream(cuda_stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
    cuda_stream& operator=(cuda_stream&&) = delete;
    cuda_stream(const cuda_stream&) = delete;
    cuda_stream& operator=(const cuda_stream&) = delete;

    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

// An executable CUDA graph instantiated from a graph someone else captured (a Python solve's, through
// torch): the runner launches it itself, so a replayed call costs no interpreter time.
class cuda_graph_exec {
public:
    explicit cuda_graph_exec(cudaGraph_t graph) { GJ_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0)); }
    ~cuda_graph_exec() {
        if (exec_) cudaGraphExecDestroy(exec_);
    }
    cuda_graph_exec(cuda_graph_exec&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
    cuda_graph_exec& operator=(cuda_graph_exec&&) = delete;
    cuda_graph_exec(const cuda_graph_exec&) = delete;
    cuda_graph_exec& operator=(const cuda_graph_exec&) = delete;

    cudaGraphExec_t get() const { return exec_; }

private:
    cudaGraphExec_t exec_ = nullptr;
};

class device_allocation {
public:
    explicit device_allocation(std::size_t bytes) : bytes_(bytes) { GJ_CUDA_CHECK(cudaMalloc(&pointer_, bytes)); }
    ~device_allocation() {
        if (pointer_) cudaFree(pointer_);
    }
    device_allocation(device_allocation&& other) noexcept
        : pointer_(std::exchange(other.pointer_, nullptr)), bytes_(other.bytes_) {}
    device_allocation& operator=(device_allocation&&) = delete;
    device_allocation(const device_allocation&) = delete;
    device_allocation& operator=(const device_allocation&) = delete;

    void* get() const { return pointer_; }
    std::size_t size_bytes() const { return bytes_; }

private:
    void* pointer_ = nullptr;
    std::size_t bytes_;
};

// Page-locked host memory mapped into the device's address space: both sides read and write it
// while kernels run.
class pinned_host_allocation {
public:
    explicit pinned_host_allocation(std::size_t bytes) {
        GJ_CUDA_CHECK(cudaHostAlloc(&host_, bytes, cudaHostAllocMapped));
        GJ_CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0));
    }
    ~pinned_host_allocation() {
        if (host_) cudaFreeHost(host_);
    }
    pinned_host_allocation(pinned_host_allocation&& other) noexcept
        : host_(std::exchange(other.host_, nullptr)), device_(other.device_) {}
    pinned_host_allocation& operator=(pinned_host_allocation&&) = delete;
    pinned_host_allocation(const pinned_host_allocation&) = delete;
    pinned_host_allocation& operator=(const pinned_host_allocation&) = delete;

    void* host() const { return host_; }
    void* device() const { return device_; }

private:
    void* host_ = nullptr;
    void* device_ = nullptr;
};

}  // namespace gpujudge
