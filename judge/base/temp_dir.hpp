#pragma once
// A private temporary directory, removed with everything in it when the owner goes; locked (flock)
// while it lives, so that a gpujudge that starts later can tell it from one whose owner was killed.
#include <filesystem>
#include <string>

namespace gpujudge {

class temp_dir {
public:
    explicit temp_dir(const std::string& purpose);
    ~temp_dir();
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    int lock_fd_ = -1;
};

// For an ending that runs no destructors (process/stop_signals.hpp): removes every temp_dir whose
// owner has not removed it yet, and lets no other be made.
void remove_temp_dirs_for_good();

// Removes the temp_dirs that earlier gpujudges left behind (killed by SIGKILL, the OOM killer, a power
// cut): named as temp_dir names them, a minute old (an owner locks its folder just after making it)
// and locked by no one.
void sweep_abandoned_temp_dirs();

}  // namespace gpujudge
