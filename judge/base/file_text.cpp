#include "base/file_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <stdexcept>

namespace gpujudge {

std::optional<std::string> read_file_text(const std::filesystem::path& path) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once (and fstat then refuses it).
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat info {};
    std::optional<std::string> text;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
        static_cast<std::uintmax_t>(info.st_size) <= kMaxFileTextBytes) {
        text.emplace();
        text->reserve(info.st_size);
        char chunk[1 << 16];
        for (;;) {
            const ssize_t got = read(fd, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0 || text->size() + got > kMaxFileTextBytes) text.reset();  // an error, or it grew
            if (got <= 0 || !text) break;
            text->append(chunk, static_cast<std::size_t>(got));
        }
    }
    close(fd);
    return text;
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
