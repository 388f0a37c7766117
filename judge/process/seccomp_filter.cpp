#include "process/seccomp_filter.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <utility>

namespace gpujudge {

seccomp_filter::seccomp_filter() : filter_(seccomp_init(SCMP_ACT_ALLOW)) {
    if (!filter_) throw std::runtime_error("libseccomp: cannot create a filter");
}

seccomp_filter::~seccomp_filter() {
    if (filter_) seccomp_release(filter_);
}

seccomp_filter::seccomp_filter(seccomp_filter&& other) noexcept : filter_(std::exchange(other.filter_, nullptr)) {}

void seccomp_filter::add_rule(std::uint32_t action, int syscall, const char* name,
                              std::vector<scmp_arg_cmp> conditions) {
    const int error = seccomp_rule_add_array(filter_, action, syscall, static_cast<unsigned>(conditions.size()),
                                             conditions.empty() ? nullptr : conditions.data());
    if (error != 0)
        throw std::runtime_error(fmt::format("libseccomp refused the rule for {}: {}", name, std::strerror(-error)));
}

void seccomp_filter::add_rules(std::uint32_t action, std::initializer_list<const char*> names) {
    for (const char* name : names) {
        const int syscall = seccomp_syscall_resolve_name(name);
        if (syscall == __NR_SCMP_ERROR) continue;  // not a system call of this architecture
        add_rule(action, syscall, name);
    }
}

}  // namespace gpujudge
