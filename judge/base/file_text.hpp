#pragma once
// Whole files as strings: read at once, or written under a private name and renamed into place, so
// that no reader, in this process or another judge's, ever sees half a file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gpujudge {

// Files larger than this are not read (problem data, sources, logs and libraries are far smaller).
constexpr std::uintmax_t kMaxFileTextBytes = std::uintmax_t{1} << 30;

// The bytes of a regular file; nothing when it cannot be opened, is not a regular file (a FIFO would
// block the judge, a device never end) or holds more than kMaxFileTextBytes.
std::optional<std::string> read_file_text(const std::filesystem::path& path);

// At most max_bytes + 1 bytes of a regular file, read (more than max_bytes: it is larger, whatever
// its stated size, which is 0 for /proc's files); nothing when it cannot be opened or read, or is
// not a regular file.
std::optional<std::string> read_file_head(const std::filesystem::path& path, std::uintmax_t max_bytes);

// What to say of a file read_file_text gave nothing for.
constexpr const char* kUnreadableFile = "cannot read the file (missing, not a regular file, or over 1 GiB)";

// A name of its own beside `path` for a file being written: pid and a counter, for concurrent
// judges and threads.
std::string private_name(const std::filesystem::path& path);

// Writes `text` under a private name and renames it to `path`; throws std::runtime_error when the
// bytes cannot be written (nothing is renamed then).
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace gpujudge
