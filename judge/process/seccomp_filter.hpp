#pragma once
// A seccomp filter being built with libseccomp, for this module's two: the sandbox's (sandbox.cpp,
// exported for bwrap) and the one a compiled solve runs under (solve_alone.cpp, loaded in place).
// Move-only; the context is released with it. Every refusal of libseccomp's throws.
#include <seccomp.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace gpujudge {

// Argument `arg` is `value`, read as the kernel reads an int (a command, a signal, an option): by its
// low 32 bits. SCMP_CMP_EQ compares all 64, and a reviewer's solve set bit 32 of F_SETLEASE and
// SIGSTOP to pass every rule that named them.
inline scmp_arg_cmp int_argument_is(unsigned arg, std::uint64_t value) {
    return {arg, SCMP_CMP_MASKED_EQ, 0xffffffffu, value & 0xffffffffu};
}

class seccomp_filter {
public:
    seccomp_filter();  // allows what no rule denies
    ~seccomp_filter();
    seccomp_filter(seccomp_filter&& other) noexcept;
    seccomp_filter& operator=(seccomp_filter&&) = delete;
    seccomp_filter(const seccomp_filter&) = delete;
    seccomp_filter& operator=(const seccomp_filter&) = delete;

    // `action` for `syscall` (named `name` in a refusal), when every condition on its arguments holds.
    void add_rule(std::uint32_t action, int syscall, const char* name, std::vector<scmp_arg_cmp> conditions = {});
    // `action` for each system call named, skipping those this architecture does not have.
    void add_rules(std::uint32_t action, std::initializer_list<const char*> names);
    scmp_filter_ctx get() const { return filter_; }

private:
    scmp_filter_ctx filter_;
};

}  // namespace gpujudge
