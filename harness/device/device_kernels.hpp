#pragma once
// Kernels that generate inputs and check outputs where they live, instead of moving whole buffers
// to the host. Each runs on the legacy default stream, synchronises and reports CUDA errors by
// throwing (GJ_CUDA_CHECK).
#include "checks/compare.hpp"
#include "inputs/counter_rng.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace gpujudge {

// Fills d_out (num_items elements of `type`) on the legacy default stream; `params.values` must be a device pointer
// here.
void generate_on_device(const generator_params& params, element_type type, void* d_out, std::size_t num_items);

// Sets the 4-byte elements h_indices[i] of d_dst to h_bits[i] (host arrays, copied over in one go).
void scatter_on_device(void* d_dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits, std::size_t num_items);

// The first byte offset where two device buffers differ, if any (word-wise compare plus a byte tail; atomicMin of the
// index).
std::optional<std::size_t> first_difference_on_device(const void* d_a, const void* d_b, std::size_t num_bytes);

}  // namespace gpujudge
