#include "base/temp_dir.hpp"

#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace gpujudge {

temp_dir::temp_dir(const std::string& purpose) {
    std::string pattern = (std::filesystem::temp_directory_path() / ("gpujudge-" + purpose + "-XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!mkdtemp(buffer.data())) throw std::runtime_error("cannot create a temporary directory");
    path_ = buffer.data();
}

temp_dir::~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace gpujudge
