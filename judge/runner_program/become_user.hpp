#pragma once
// What a root judge's sandbox runs first (sandbox_user in process/sandbox.hpp): the runner started
// as `gpujudge-runner --become UID:GID -- COMMAND...`. As root of the sandbox's user namespace, with
// CAP_SETUID, CAP_SETGID and CAP_SETPCAP alone, it empties the bounding and ambient sets, becomes the
// user with no supplementary group, empties what is left of its capabilities, checks that all of
// this holds, closes what bwrap left open past the judge's descriptors (0 to 5), and runs COMMAND.
// Our own code rather than setpriv: util-linux before 2.37 refuses --bounding-set=-all where the
// kernel knows more capabilities than its libcap-ng does.
#include <string>

namespace gpujudge {

// `ids` is "UID:GID", `command` an argv ending in a null pointer (looked for on PATH as bwrap
// does). Returns only when something failed: what.
std::string become_user_and_run(const char* ids, char* const* command);

}  // namespace gpujudge
