#include "base/temp_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <regex>
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
    lock_fd_ = open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock_fd_ >= 0) flock(lock_fd_, LOCK_EX);
    g_live.insert(path_);
}

temp_dir::~temp_dir() {
    std::lock_guard<std::mutex> lock(g_live_mutex);
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    g_live.erase(path_);
    if (lock_fd_ >= 0) close(lock_fd_);
}

void remove_temp_dirs_for_good() {
    g_live_mutex.lock();  // never unlocked: no folder is made after this
    for (const auto& path : g_live) {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
}

void sweep_abandoned_temp_dirs() {
    const std::regex named(R"(gpujudge-[a-z]+-[A-Za-z0-9]{6})");  // not gpujudge-cache, nor the history
    const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::minutes(1);
    std::error_code error;
    const std::filesystem::directory_iterator end;
    for (auto it = std::filesystem::directory_iterator(std::filesystem::temp_directory_path(error), error);
         !error && it != end; it.increment(error)) {
        const std::filesystem::path& path = it->path();
        std::error_code ignored;  // a folder gone meanwhile, another user's: not ours to remove
        if (!std::regex_match(path.filename().string(), named) || it->last_write_time(ignored) > old) continue;
        const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) std::filesystem::remove_all(path, ignored);
        close(fd);
    }
}

}  // namespace gpujudge
