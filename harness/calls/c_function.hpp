#pragma once
// Calls a `void f(...)` whose parameters are only known at run time (from problem.yaml), via libffi.
#include "spec/problem_spec.hpp"
#include "spec/solve_function.hpp"

#include <ffi.h>

#include <vector>

namespace gpujudge {

class c_function final : public solve_function {
public:
    c_function(void* address, const std::vector<parameter>& params);
    c_function(const c_function&) = delete;
    c_function& operator=(const c_function&) = delete;

    // `pointers[i]` is used for pointer parameter i; scalars come from `scalars` by name. A C++
    // exception out of the function is its own failure, said as a Python one is (its message, at most
    // 16 KiB), never taken for the harness's.
    std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const override;

private:
    void* address_;
    const std::vector<parameter>* params_;
    std::vector<ffi_type*> types_;
    ffi_cif cif_{};
};

}  // namespace gpujudge
