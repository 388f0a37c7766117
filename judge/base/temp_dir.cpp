#include "base/temp_dir.hpp"

#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace gpujudge {

namespace {

std::mutex g_live_mutex;
std::set<std::filesystem::path> g_live;  // made and not yet removed

}  // namespace

temp_dir::temp_dir(const std::string& purpose) {
    std::lock_guard<std::mutex> lock(g_live_mutex);  // made and listed at once
    std::string pattern = (std::filesystem::temp_directory_path() / ("gpujudge-" + purpose + "-XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!mkdtemp(buffer.data())) throw std::runtime_error("cannot create a temporary directory");
    path_ = buffer.data();
    g_live.insert(path_);
}

temp_dir::~temp_dir() {
    std::lock_guard<std::mutex> lock(g_live_mutex);
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    g_live.erase(path_);
}

void remove_temp_dirs_for_good() {
    g_live_mutex.lock();  // never unlocked: no folder is made after this
    for (const auto& path : g_live) {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
}

}  // namespace gpujudge
