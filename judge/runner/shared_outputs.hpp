#pragma once
// The window through which a runner ships a call's outputs to the judge: a sealed memfd of a
// fixed size (it can neither grow nor shrink under the judge's mapping), made by the judge and
// passed to the runner as kOutputsFd. The runner writes the outputs of a call there, in parameter
// order, and says so; the judge copies them out before comparing, then answers. The expected
// outputs never leave the judge.
#include "runs/judged_call.hpp"
#include "spec/problem_spec.hpp"

#include <cstddef>

namespace gpujudge {

class shared_outputs {
public:
    // The judge's side: a new window of `bytes` (at least one page).
    static shared_outputs create(std::size_t bytes);
    // The runner's side: the window passed as `fd`; none (size 0) when the fd is not one.
    static shared_outputs attach(int fd);

    shared_outputs(shared_outputs&& other) noexcept;
    shared_outputs& operator=(shared_outputs&& other) noexcept;
    shared_outputs(const shared_outputs&) = delete;
    shared_outputs& operator=(const shared_outputs&) = delete;
    ~shared_outputs();

    int fd() const { return fd_; }
    std::size_t size_bytes() const { return size_; }

    // The runner's side: downloads every output of `buffers` into the window. Throws when they do
    // not fit (the judge sized the window for the problem's largest test).
    void write(const problem_spec& spec, memory_space& space, const buffer_set& buffers) const;
    // The judge's side: a copy of the outputs of a call with `scalars`, taken before any check.
    named_arrays read(const problem_spec& spec, const scalar_values& scalars) const;

private:
    shared_outputs(int fd, void* base, std::size_t size) : fd_(fd), base_(base), size_(size) {}
    int fd_ = -1;
    void* base_ = nullptr;
    std::size_t size_ = 0;
};

// The bytes of every output of a test with `scalars`, and the most any test of the problem needs.
std::size_t outputs_bytes(const problem_spec& spec, const scalar_values& scalars);
std::size_t largest_outputs_bytes(const problem_spec& spec);

}  // namespace gpujudge
