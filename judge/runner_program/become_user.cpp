#include "runner_program/become_user.hpp"

#include <fmt/format.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gpujudge {

namespace {

constexpr int kFirstLeftOpen = 6;  // the judge's descriptors are 0 to 5 (child_process.cpp)

std::string failed(const char* what) {
    return fmt::format("{}: {}", what, std::strerror(errno));
}

// Whether any capability set of this process holds anything.
bool holds_capabilities() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct sets[2]{};
    if (syscall(SYS_capget, &header, sets) != 0) return true;
    for (const auto& set : sets)
        if (set.effective || set.permitted || set.inheritable) return true;
    for (int cap = 0; cap <= 63; ++cap)
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 || prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) == 1)
            return true;
    return false;
}

}  // namespace

std::string become_user_and_run(const char* ids, char* const* command) {
    unsigned uid = 0, gid = 0;
    char rest = 0;
    if (std::sscanf(ids, "%u:%u%c", &uid, &gid, &rest) != 2 || uid == 0 || gid == 0)
        return fmt::format("'{}' is not UID:GID of a user other than root", ids);
    if (!command[0]) return "no command to run";
    // The bounding set first: dropping from it takes CAP_SETPCAP, which leaving root takes away.
    for (int cap = 0; cap <= 63; ++cap)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return failed("PR_CAPBSET_DROP");
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return failed("PR_CAP_AMBIENT_CLEAR_ALL");
    if (setgroups(0, nullptr) != 0) return failed("setgroups");
    if (setresgid(gid, gid, gid) != 0) return failed("setresgid");
    if (setresuid(uid, uid, uid) != 0) return failed("setresuid");
    // Leaving root emptied the permitted and effective sets; the inheritable one is emptied here.
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[2]{};
    if (syscall(SYS_capset, &header, none) != 0) return failed("capset");
    gid_t groups[1];
    if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid || getgroups(1, groups) != 0 ||
        holds_capabilities())
        return "the user, its groups or its capabilities are not what was asked";
    if (syscall(SYS_close_range, kFirstLeftOpen, ~0U, 0) != 0)
        for (int fd = kFirstLeftOpen; fd < 1024; ++fd) close(fd);
    execvp(command[0], command);
    return fmt::format("{}: {}", command[0], std::strerror(errno));
}

}  // namespace gpujudge
