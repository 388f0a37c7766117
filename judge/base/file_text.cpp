#include "base/file_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <fstream>
#include <stdexcept>

namespace gpujudge {

namespace {

// Up to `limit` bytes of `path` when it is a regular file whose stated size is within `stated`;
// nothing when it cannot be opened or read. O_NONBLOCK: opening a FIFO with no writer returns at
// once (and fstat then refuses it).
std::optional<std::string> read_up_to(const std::filesystem::path& path, std::uintmax_t limit, std::uintmax_t stated) {
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat info {};
    std::optional<std::string> text;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && static_cast<std::uintmax_t>(info.st_size) <= stated) {
        text.emplace();
        text->reserve(std::min<std::uintmax_t>(info.st_size, limit));
        char chunk[1 << 16];
        // Whole chunks, cut to the limit after: a short last read fails on some files (a pagemap
        // reads in 8-byte words).
        while (text->size() < limit) {
            const ssize_t got = read(fd, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) text.reset();
            if (got <= 0) break;
            text->append(chunk, static_cast<std::size_t>(std::min<std::uintmax_t>(got, limit - text->size())));
        }
    }
    close(fd);
    return text;
}

}  // namespace

std::optional<std::string> read_file_text(const std::filesystem::path& path) {
    auto text = read_up_to(path, kMaxFileTextBytes + 1, kMaxFileTextBytes);
    if (text && text->size() > kMaxFileTextBytes) text.reset();  // it grew, or its size was not its length
    return text;
}

std::optional<std::string> read_file_head(const std::filesystem::path& path, std::uintmax_t max_bytes) {
    return read_up_to(path, max_bytes + 1, UINTMAX_MAX);
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
