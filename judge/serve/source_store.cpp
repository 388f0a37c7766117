#include "serve/source_store.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "history/database.hpp"

namespace gpujudge {

namespace {

// Two requests may write the same file at once: each under a private name, renamed into place.
void write_whole(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    write_file_atomically(path, text);
}

}  // namespace

source_store::source_store(std::filesystem::path dir, std::string extension)
    : dir_(std::move(dir)), extension_(std::move(extension)) {}

std::filesystem::path source_store::keep(const std::string& slug, const std::string& text) const {
    // 16 hex digits of the content hash: enough to tell a learner's versions apart.
    const std::filesystem::path path = dir_ / "sources" / slug / (content_hash({text}).substr(0, 16) + extension_);
    if (read_file_text(path) != text) write_whole(path, text);
    return path;
}

void source_store::save_draft(const std::string& slug, const std::string& text) const {
    write_whole(dir_ / "drafts" / (slug + extension_), text);
}

std::optional<std::string> source_store::draft(const std::string& slug) const {
    const std::filesystem::path path = dir_ / "drafts" / (slug + extension_);
    if (!std::filesystem::is_regular_file(path)) return std::nullopt;
    return read_file_text(path);
}

std::filesystem::path default_store_dir() {
    return default_history_path().parent_path() / "serve";
}

std::optional<std::string> attempt_source(const std::string& path, const std::string& hash, std::uintmax_t limit) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error) || std::filesystem::file_size(path, error) > limit || error)
        return std::nullopt;
    std::string text = read_file_text(path).value_or("");
    if (hash.empty() || content_hash({text}) != hash) return std::nullopt;
    return text;
}

}  // namespace gpujudge
