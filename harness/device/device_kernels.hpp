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

// Sets the 4-byte elements h_indices[i] of d_dst to h_bits[i] (host arrays, copied over in one go and wiped on the
// device once used).
void scatter_on_device(void* d_dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits, std::size_t num_items);

// The first of num_items elements at d_now that generate_on_device(params) and then scatter_on_device with the
// changes (h_indices sorted) would not have made, if any. The change list is wiped on the device once used.
std::optional<std::size_t> first_ungenerated_on_device(const generator_params& params, element_type type,
                                                       const void* d_now, std::size_t num_items,
                                                       const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                                                       std::size_t num_changes);

}  // namespace gpujudge
