#pragma once
// Where solve's buffers live: device memory for real submissions, host memory for the fake
// solutions that test the runner on machines without a GPU. Everything else is shared.
#include "calls/call_listener.hpp"
#include "checks/compare.hpp"
#include "inputs/counter_rng.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace gpujudge {

struct call_status {
    bool ok = true;
    bool context_lost = false;  // a sticky error: this process can run nothing more on the device
    std::string error;
};

class memory_space {
public:
    virtual ~memory_space() = default;
    virtual void* allocate(std::size_t bytes) = 0;
    virtual void deallocate(void* pointer) noexcept = 0;
    virtual void upload(void* dst, const void* h_src, std::size_t bytes) = 0;
    virtual void download(void* h_dst, const void* src, std::size_t bytes) = 0;
    virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;
    virtual void fill(void* dst, unsigned char byte, std::size_t bytes) = 0;
    // Fills num_items elements at dst where they live, as generate() of generator.hpp does on the
    // host; `params.values` is a host pointer (the device space copies the list over).
    virtual void generate(void* dst, const generator_params& params, element_type type, std::size_t num_items) = 0;
    // Sets the 4-byte elements h_indices[i] of dst to h_bits[i], in one transfer.
    virtual void scatter(void* dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                         std::size_t num_items) = 0;
    // The first of the num_items elements at `now` that is not as generate() and then scatter() with
    // the changes (h_indices sorted) make it, if any: the after-call check of a `const` input, made
    // without a copy of the original where solve could reach it.
    virtual std::optional<std::size_t> first_ungenerated(const void* now, const generator_params& params,
                                                         element_type type, std::size_t num_items,
                                                         const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                                                         std::size_t num_changes) = 0;
    // After solve returns: waits for all work on every stream and reports the error it left.
    virtual call_status finish_call() = 0;
    // Evicts the inputs from the caches, so that every timed call starts cold.
    virtual void flush_caches() = 0;
    virtual std::unique_ptr<call_timer> make_timer() = 0;
    // Brackets the one call a profiler attached to the process collects (ncu --profile-from-start
    // off): the harness's own kernels before and after it stay out of the profile. Turning it off
    // never throws: after a failed call, the call's error is what counts.
    virtual void set_profiling(bool on) { (void)on; }
    // Before solve runs alone (judge/process/solve_alone.hpp): the threads the space would start
    // lazily in a call start now (CUDA's for host functions), and the space starts no more itself.
    virtual void before_solve_alone() {}
};

// One call between the listener's hooks, in the order every timer relies on: before the call,
// `work` (solve, or nothing for an empty call), after it returns, a device-wide synchronise, after
// that. Returns what the synchronise reported.
template <typename Work>
call_status call_between_hooks(memory_space& space, call_listener& listener, Work&& work) {
    listener.before_call();
    work();
    listener.after_return();
    const call_status status = space.finish_call();
    listener.after_finish();
    return status;
}

std::unique_ptr<memory_space> make_host_space();
std::unique_ptr<memory_space> make_device_space();

}  // namespace gpujudge
