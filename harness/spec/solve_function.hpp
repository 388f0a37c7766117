#pragma once
// What the harness calls as solve: a compiled function (c_function), or one written in another
// language behind a C entry (python_function). An error that language reports (a Python exception)
// comes back as its message; a crash is a crash either way.
#include "spec/expression.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

class solve_function {
public:
    virtual ~solve_function() = default;
    // `pointers[i]` for pointer parameter i; scalars from `scalars` by name. The error the
    // function raised, if any.
    virtual std::optional<std::string> run(const std::vector<void*>& pointers, const scalar_values& scalars) const = 0;
    // Whether a call of each test's shapes must come before the judged one (a JIT that compiles on
    // the first call: that is compile time, not the call's).
    virtual bool compiles_on_first_call() const { return false; }
    // Timed calls from here on (true) or judged ones. A function whose host code is slow beside its
    // kernels (Python) may then replay what its first call on the same buffers launched.
    virtual void set_timed(bool /*timed*/) {}
};

}  // namespace gpujudge
