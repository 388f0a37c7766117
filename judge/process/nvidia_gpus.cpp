#include "process/nvidia_gpus.hpp"

#include "base/file_text.hpp"

#include <algorithm>
#include <sstream>

namespace gpujudge {

namespace {

// The value of "Key: \t value" in the driver's information file, trimmed; empty where absent.
std::string field(const std::string& text, const std::string& key) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(key + ":", 0) != 0) continue;
        const std::size_t begin = line.find_first_not_of(" \t", key.size() + 1);
        const std::size_t end = line.find_last_not_of(" \t\r");
        return begin == std::string::npos ? "" : line.substr(begin, end - begin + 1);
    }
    return "";
}

// `text` as a whole number, if it is one that fits an int (at most 9 digits, nothing else).
std::optional<int> small_number(const std::string& text) {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoi(text);
}

// The number of a GPU's own node ("nvidia3": 3); none for the shared ones ("nvidiactl", "nvidia-uvm").
std::optional<int> gpu_node_number(const std::string& name) {
    return small_number(name.substr(std::string("nvidia").size()));
}

}  // namespace

std::vector<nvidia_gpu> nvidia_gpus(const std::filesystem::path& listing) {
    std::vector<nvidia_gpu> gpus;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(listing, error)) {
        const auto text = read_file_text(entry.path() / "information");
        if (!text) continue;
        const auto minor = small_number(field(*text, "Device Minor"));
        const nvidia_gpu gpu{entry.path().filename().string(), field(*text, "GPU UUID"), minor.value_or(-1)};
        if (!gpu.uuid.empty() && minor) gpus.push_back(gpu);
    }
    std::sort(gpus.begin(), gpus.end(), [](const nvidia_gpu& a, const nvidia_gpu& b) { return a.bus < b.bus; });
    return gpus;
}

std::vector<std::filesystem::path> nvidia_device_nodes(const std::filesystem::path& dev, std::optional<int> gpu_minor) {
    std::vector<std::filesystem::path> nodes;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dev, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("nvidia", 0) != 0) continue;
        const auto number = gpu_node_number(name);
        if (!number || !gpu_minor || *number == *gpu_minor) nodes.push_back(entry.path());
    }
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

}  // namespace gpujudge
