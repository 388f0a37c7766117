#include "base/file_text.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpujudge {

std::optional<std::string> read_file_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return std::nullopt;
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string private_name(const std::filesystem::path& path) {
    static std::atomic<unsigned> count{0};
    return path.string() + fmt::format(".{}.{}.partial", getpid(), count++);
}

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path partial = private_name(path);
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            std::error_code ignored;
            std::filesystem::remove(partial, ignored);
            throw std::runtime_error(fmt::format("{}: cannot be written", partial.string()));
        }
    }
    std::filesystem::rename(partial, path);
}

}  // namespace gpujudge
