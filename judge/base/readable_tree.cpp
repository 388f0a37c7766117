#include "base/readable_tree.hpp"

namespace gpujudge {

namespace {

void let_others_read_entry(const std::filesystem::path& path, const std::filesystem::file_status& status) {
    namespace fs = std::filesystem;
    const fs::perms wanted =
        fs::is_directory(status) ? fs::perms::others_read | fs::perms::others_exec : fs::perms::others_read;
    if ((status.permissions() & wanted) == wanted) return;
    std::error_code ignored;
    fs::permissions(path, wanted, fs::perm_options::add, ignored);
}

}  // namespace

void let_others_read(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const auto status = fs::symlink_status(path, error);
    if (error || fs::is_symlink(status)) return;
    let_others_read_entry(path, status);
    if (!fs::is_directory(status)) return;
    for (fs::recursive_directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
        std::error_code entry_error;
        const auto entry_status = it->symlink_status(entry_error);
        if (!entry_error && !fs::is_symlink(entry_status)) let_others_read_entry(it->path(), entry_status);
    }
}

}  // namespace gpujudge
