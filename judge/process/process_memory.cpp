#include "process/process_memory.hpp"

#include "process/child_process.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

namespace gpujudge {

namespace {

// Children through /proc/<pid>/task/*/children; nothing when the kernel lacks it.
std::optional<std::vector<int>> listed_children(int pid) {
    std::error_code error;
    const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
    std::vector<int> children;
    bool listed = false;
    for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
        std::ifstream in(task.path() / "children");
        if (!in) continue;
        listed = true;
        for (int child = 0; in >> child;) children.push_back(child);
    }
    if (!listed) return std::nullopt;
    return children;
}

// The kiB after `field` in a /proc file of "Name:   value kB" lines; none when it has no such line.
std::optional<std::uintmax_t> field_kib(const std::filesystem::path& file, const std::string& field) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(field, 0) != 0) continue;
        std::istringstream fields(line.substr(field.size()));
        std::uintmax_t kib = 0;
        if (fields >> kib) return kib;
    }
    return std::nullopt;
}

// A process's proportional share of the memory it maps (Pss of smaps_rollup): each page shared with
// other processes (copy-on-write after fork, a memory file mapped twice) counted once among them, and
// file-backed pages too (CUDA's managed memory touched on the host is counted there). VmRSS where the
// kernel has no smaps_rollup (before 4.14).
std::uintmax_t resident_bytes(int pid) {
    const std::filesystem::path proc = "/proc/" + std::to_string(pid);
    const auto kib = field_kib(proc / "smaps_rollup", "Pss:");
    return (kib ? *kib : field_kib(proc / "status", "VmRSS:").value_or(0)) * 1024;
}

// The memory files `pid` holds open, by device and inode, with their allocated bytes.
void add_memory_files(int pid, std::map<std::pair<dev_t, ino_t>, std::uintmax_t>& files) {
    std::error_code error;
    const std::filesystem::path fds = "/proc/" + std::to_string(pid) + "/fd";
    for (const auto& fd : std::filesystem::directory_iterator(fds, error)) {
        char target[64];
        const ssize_t length = readlink(fd.path().c_str(), target, sizeof target - 1);
        if (length <= 0 || std::string(target, static_cast<std::size_t>(length)).rfind("/memfd:", 0) != 0) continue;
        struct stat file {};
        if (stat(fd.path().c_str(), &file) == 0)
            files[{file.st_dev, file.st_ino}] = static_cast<std::uintmax_t>(file.st_blocks) * 512;
    }
}

}  // namespace

std::vector<int> process_tree(int root) {
    std::vector<int> tree{root};
    for (std::size_t i = 0; i < tree.size(); ++i) {
        auto children = listed_children(tree[i]);  // else a walk of /proc (child_process's)
        if (!children) children = children_of(tree[i]);
        tree.insert(tree.end(), children->begin(), children->end());
    }
    return tree;
}

std::uintmax_t process_tree_memory(int root) {
    std::uintmax_t total = 0;
    std::map<std::pair<dev_t, ino_t>, std::uintmax_t> files;
    for (const int pid : process_tree(root)) {
        total += resident_bytes(pid);
        add_memory_files(pid, files);
    }
    for (const auto& [file, bytes] : files) total += bytes;
    return total;
}

}  // namespace gpujudge
