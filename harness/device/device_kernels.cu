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

// The offset of the first differing byte within a word, or -1. Little-endian: the lowest set bit
// of a ^ b lies in the first differing byte.
__device__ int differing_byte(unsigned char a, unsigned char b) {
    return a == b ? -1 : 0;
}
__device__ int differing_byte(std::uint32_t a, std::uint32_t b) {
    return a == b ? -1 : (__ffs(a ^ b) - 1) / 8;
}
__device__ int differing_byte(uint4 a, uint4 b) {
    const std::uint32_t x[4] = {a.x, a.y, a.z, a.w}, y[4] = {b.x, b.y, b.z, b.w};
    for (int k = 0; k < 4; ++k)
        if (x[k] != y[k]) return static_cast<int>(sizeof x[k]) * k + differing_byte(x[k], y[k]);
    return -1;
}

// `base` is the byte offset of word 0 in the whole buffers.
template <typename Word>
__global__ void first_difference_kernel(const Word* d_a, const Word* d_b, std::size_t num_words, std::size_t base,
                                        unsigned long long* d_first) {
    for (std::size_t i = first_index(); i < num_words; i += grid_stride()) {
        const int byte = differing_byte(d_a[i], d_b[i]);
        if (byte < 0) continue;
        atomicMin(d_first, base + i * sizeof(Word) + byte);
        return;  // this thread's later words lie further on
    }
}

template <typename Word>
void launch_first_difference(const void* d_a, const void* d_b, std::size_t num_bytes, std::size_t base,
                             unsigned long long* d_first) {
    const std::size_t num_words = num_bytes / sizeof(Word);
    if (num_words == 0) return;
    first_difference_kernel<<<grid_for(num_words), kThreads>>>(static_cast<const Word*>(d_a),
                                                               static_cast<const Word*>(d_b), num_words, base, d_first);
    GJ_CUDA_CHECK(cudaGetLastError());
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

}  // namespace

void generate_on_device(const generator_params& params, element_type type, void* d_out, std::size_t num_items) {
    if (num_items == 0) return;
    generate_kernel<<<grid_for(num_items), kThreads>>>(params, type, static_cast<std::uint32_t*>(d_out), num_items);
    finish_kernels();
}

void scatter_on_device(void* d_dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                       std::size_t num_items) {
    if (num_items == 0) return;
    device_allocation d_indices(num_items * sizeof(std::uint64_t));
    device_allocation d_bits(num_items * sizeof(std::uint32_t));
    GJ_CUDA_CHECK(cudaMemcpy(d_indices.get(), h_indices, d_indices.size_bytes(), cudaMemcpyHostToDevice));
    GJ_CUDA_CHECK(cudaMemcpy(d_bits.get(), h_bits, d_bits.size_bytes(), cudaMemcpyHostToDevice));
    scatter_kernel<<<grid_for(num_items), kThreads>>>(static_cast<const std::uint64_t*>(d_indices.get()),
                                                      static_cast<const std::uint32_t*>(d_bits.get()), num_items,
                                                      static_cast<std::uint32_t*>(d_dst));
    finish_kernels();
}

std::optional<std::size_t> first_difference_on_device(const void* d_a, const void* d_b, std::size_t num_bytes) {
    if (num_bytes == 0) return std::nullopt;
    device_allocation d_first = make_counter(0xFF);  // kNone: no difference yet
    auto* first = static_cast<unsigned long long*>(d_first.get());
    // 16-byte words where both buffers allow them (cudaMalloc's always do), bytes for the rest.
    const bool aligned = (reinterpret_cast<std::uintptr_t>(d_a) | reinterpret_cast<std::uintptr_t>(d_b)) % 16 == 0;
    const std::size_t word_bytes = aligned ? num_bytes / 16 * 16 : 0;
    if (word_bytes > 0) launch_first_difference<uint4>(d_a, d_b, word_bytes, 0, first);
    launch_first_difference<unsigned char>(static_cast<const unsigned char*>(d_a) + word_bytes,
                                           static_cast<const unsigned char*>(d_b) + word_bytes, num_bytes - word_bytes,
                                           word_bytes, first);
    finish_kernels();
    const unsigned long long h_first = read_counter(d_first);
    if (h_first == kNone) return std::nullopt;
    return static_cast<std::size_t>(h_first);
}

}  // namespace gpujudge
