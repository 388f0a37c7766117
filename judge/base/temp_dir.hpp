#pragma once
// A private temporary directory, removed with everything in it when the owner goes.
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
};

// For an ending that runs no destructors (process/stop_signals.hpp): removes every temp_dir whose
// owner has not removed it yet, and lets no other be made.
void remove_temp_dirs_for_good();

}  // namespace gpujudge
