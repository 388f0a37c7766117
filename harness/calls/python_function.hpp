#pragma once
// solve written in Python, reached through an entry with a fixed C signature that the Python
// runner makes (ctypes): it wraps each pointer in a tensor of its element count and calls the
// learner's solve with the scalars, in the signature's order.
#include "spec/problem_spec.hpp"
#include "spec/solve_function.hpp"

#include "device/cuda_resources.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace gpujudge {

// 0: solve returned. Otherwise it raised: its trimmed traceback is in `error` (NUL-terminated).
// `replay` (timed calls, on the GPU): the first call on a set of buffers and scalars captures what
// solve launches into a CUDA graph and every call on them replays it, so Python's host time (100 to
// 180 µs a call on the H100 machine, after the pause between two timed calls) is not launch
// latency in the time, as a held-back CUDA solve's is not. A solve that cannot be captured (it
// synchronises, or reads a result on the host) is called as it is.
// Where the capture worked, `*graph` is the captured cudaGraph_t (kept alive by the runner's
// Python), which the runner instantiates and launches itself on later calls on the same buffers.
using python_entry = int (*)(void* const* pointers, const std::int64_t* counts, const double* scalars, int replay,
                             std::uint64_t* graph, char* error, std::size_t error_bytes);

class python_function final : public solve_function {
public:
    python_function(python_entry entry, const problem_spec& spec) : entry_(entry), spec_(spec) {}
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const override;
    bool compiles_on_first_call() const override { return true; }  // Triton's JIT, torch's lazy init
    void set_timed(bool timed) override { replay_ = timed; }

private:
    // The buffers and scalars of a call, as the graphs are keyed.
    std::vector<std::uint64_t> call_key(const std::vector<void*>& pointers, const scalar_values& scalars) const;
    void keep_graph(std::vector<std::uint64_t> key, std::uint64_t graph) const;

    python_entry entry_;
    bool replay_ = false;
    mutable std::map<std::vector<std::uint64_t>, cuda_graph_exec> graphs_;
    mutable bool python_replays_ = false;
    const problem_spec& spec_;
};

}  // namespace gpujudge
