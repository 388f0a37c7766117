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

}  // namespace gpujudge
