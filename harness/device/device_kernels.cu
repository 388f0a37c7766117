#include "device/cuda_check.hpp"
#include "device/cuda_resources.hpp"
#include "device/device_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace gpujudge {

namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNone = ~0ull;

// Bandwidth-bound kernels: 8 blocks per SM fill it, grid-stride loops cover the rest; fewer blocks
// for small buffers.
int grid_for(std::size_t num_items) {
    int device = 0, num_sms = 0;
    GJ_CUDA_CHECK(cudaGetDevice(&device));
    GJ_CUDA_CHECK(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device));
    const std::size_t needed = (num_items + kThreads - 1) / kThreads;
    return static_cast<int>(std::clamp<std::size_t>(needed, 1, static_cast<std::size_t>(num_sms) * 8));
}

// Reports a failed launch, then one that failed while running.
void finish_kernels() {
    GJ_CUDA_CHECK(cudaGetLastError());
    GJ_CUDA_CHECK(cudaDeviceSynchronize());
}

__device__ std::size_t first_index() {
    return blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
}
__device__ std::size_t grid_stride() {
    return std::size_t{gridDim.x} * blockDim.x;
}

__global__ void generate_kernel(generator_params params, element_type type, std::uint32_t* d_out,
                                std::size_t num_items) {
    for (std::size_t i = first_index(); i < num_items; i += grid_stride())
        d_out[i] = stored_bits(generated_value(params, i), type);
}

__global__ void scatter_kernel(const std::uint64_t* d_indices, const std::uint32_t* d_bits, std::size_t num_items,
                               std::uint32_t* d_dst) {
    for (std::size_t i = first_index(); i < num_items; i += grid_stride()) d_dst[d_indices[i]] = d_bits[i];
}

// Whether the sorted change list sets element `index` to `bits`.
__device__ bool changed_to(const std::uint64_t* d_indices, const std::uint32_t* d_bits, std::size_t num_changes,
                           std::uint64_t index, std::uint32_t bits) {
    std::size_t low = 0, high = num_changes;
    while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (d_indices[middle] < index)
            low = middle + 1;
        else
            high = middle;
    }
    return low < num_changes && d_indices[low] == index && d_bits[low] == bits;
}

// Elements that differ from the generated value where no change explains it. The list is searched
// only there: a handful of elements, not all of them.
__global__ void first_ungenerated_kernel(generator_params params, element_type type, const std::uint32_t* d_now,
                                         std::size_t num_items, const std::uint64_t* d_indices,
                                         const std::uint32_t* d_bits, std::size_t num_changes,
                                         unsigned long long* d_first) {
    for (std::size_t i = first_index(); i < num_items; i += grid_stride()) {
        const std::uint32_t now = d_now[i];
        if (now == stored_bits(generated_value(params, i), type)) continue;
        if (changed_to(d_indices, d_bits, num_changes, i, now)) continue;
        atomicMin(d_first, i);
        return;  // this thread's later elements lie further on
    }
}

// Changed elements that hold something else (the generated value among it, which the kernel above passes).
__global__ void missing_change_kernel(const std::uint32_t* d_now, const std::uint64_t* d_indices,
                                      const std::uint32_t* d_bits, std::size_t num_changes,
                                      unsigned long long* d_first) {
    for (std::size_t c = first_index(); c < num_changes; c += grid_stride())
        if (d_now[d_indices[c]] != d_bits[c]) atomicMin(d_first, d_indices[c]);
}

device_allocation make_counter(unsigned char initial_byte) {
    device_allocation d_counter(sizeof(unsigned long long));
    GJ_CUDA_CHECK(cudaMemset(d_counter.get(), initial_byte, sizeof(unsigned long long)));
    return d_counter;
}

unsigned long long read_counter(const device_allocation& d_counter) {
    unsigned long long h_value = 0;
    GJ_CUDA_CHECK(cudaMemcpy(&h_value, d_counter.get(), sizeof h_value, cudaMemcpyDeviceToHost));
    return h_value;
}

// A change list on the device, wiped before it is freed: solve's own allocations may be given the
// same memory, and would find there the secret positions of the timed data sets.
class device_changes {
public:
    device_changes(const std::uint64_t* h_indices, const std::uint32_t* h_bits, std::size_t num_items)
        : d_indices_(std::max<std::size_t>(num_items, 1) * sizeof(std::uint64_t)),
          d_bits_(std::max<std::size_t>(num_items, 1) * sizeof(std::uint32_t)) {
        if (num_items == 0) return;
        GJ_CUDA_CHECK(
            cudaMemcpy(d_indices_.get(), h_indices, num_items * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
        GJ_CUDA_CHECK(cudaMemcpy(d_bits_.get(), h_bits, num_items * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    }
    ~device_changes() {  // unchecked: after a failed call its own error is what counts
        cudaMemset(d_indices_.get(), 0, d_indices_.size_bytes());
        cudaMemset(d_bits_.get(), 0, d_bits_.size_bytes());
    }
    device_changes(const device_changes&) = delete;
    device_changes& operator=(const device_changes&) = delete;

    const std::uint64_t* indices() const { return static_cast<const std::uint64_t*>(d_indices_.get()); }
    const std::uint32_t* bits() const { return static_cast<const std::uint32_t*>(d_bits_.get()); }

private:
    device_allocation d_indices_, d_bits_;
};

}  // namespace

void generate_on_device(const generator_params& params, element_type type, void* d_out, std::size_t num_items) {
    if (num_items == 0) return;
    generate_kernel<<<grid_for(num_items), kThreads>>>(params, type, static_cast<std::uint32_t*>(d_out), num_items);
    finish_kernels();
}

void scatter_on_device(void* d_dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                       std::size_t num_items) {
    if (num_items == 0) return;
    const device_changes changes(h_indices, h_bits, num_items);
    scatter_kernel<<<grid_for(num_items), kThreads>>>(changes.indices(), changes.bits(), num_items,
                                                      static_cast<std::uint32_t*>(d_dst));
    finish_kernels();
}

std::optional<std::size_t> first_ungenerated_on_device(const generator_params& params, element_type type,
                                                       const void* d_now, std::size_t num_items,
                                                       const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                                                       std::size_t num_changes) {
    if (num_items == 0) return std::nullopt;
    device_allocation d_first = make_counter(0xFF);  // kNone: no difference yet
    auto* first = static_cast<unsigned long long*>(d_first.get());
    const auto* now = static_cast<const std::uint32_t*>(d_now);
    const device_changes changes(h_indices, h_bits, num_changes);
    first_ungenerated_kernel<<<grid_for(num_items), kThreads>>>(params, type, now, num_items, changes.indices(),
                                                                changes.bits(), num_changes, first);
    GJ_CUDA_CHECK(cudaGetLastError());
    if (num_changes > 0)
        missing_change_kernel<<<grid_for(num_changes), kThreads>>>(now, changes.indices(), changes.bits(), num_changes,
                                                                   first);
    finish_kernels();
    const unsigned long long h_first = read_counter(d_first);
    if (h_first == kNone) return std::nullopt;
    return static_cast<std::size_t>(h_first);
}

}  // namespace gpujudge
