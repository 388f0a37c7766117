#pragma once
// solve written in Python, reached through an entry with a fixed C signature that the Python
// runner makes (ctypes): it wraps each pointer in a tensor of its element count and calls the
// learner's solve with the scalars, in the signature's order.
#include "problem_spec.hpp"
#include "solve_function.hpp"

#include <cstddef>
#include <cstdint>

namespace gpujudge {

// 0: solve returned. Otherwise it raised: its trimmed traceback is in `error` (NUL-terminated).
using python_entry = int (*)(void* const* pointers, const std::int64_t* counts, const double* scalars, char* error,
                             std::size_t error_bytes);

class python_function final : public solve_function {
public:
    python_function(python_entry entry, const problem_spec& spec) : entry_(entry), spec_(spec) {}
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const override;
    bool compiles_on_first_call() const override { return true; }  // Triton's JIT, torch's lazy init

private:
    python_entry entry_;
    const problem_spec& spec_;
};

}  // namespace gpujudge
