#include "serve/source_store.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "catalog/starter.hpp"
#include "history/database.hpp"

namespace gpujudge {

namespace {

// Two requests may write the same file at once: each under a private name, renamed into place.
void write_whole(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    write_file_atomically(path, text);
}

}  // namespace

source_store::source_store(std::filesystem::path dir, std::string cuda_extension)
    : dir_(std::move(dir)), cuda_extension_(std::move(cuda_extension)) {}

std::string source_store::extension(const std::string& language) const {
    return language == "cuda" ? cuda_extension_ : language_extension(language);
}

std::filesystem::path source_store::keep(const std::string& slug, const std::string& language,
                                         const std::string& text) const {
    // 16 hex digits of the content hash: enough to tell a learner's versions apart.
    const std::filesystem::path path =
        dir_ / "sources" / slug / (content_hash({text}).substr(0, 16) + extension(language));
    if (read_file_text(path) != text) write_whole(path, text);
    return path;
}

std::filesystem::path source_store::draft_path(const std::string& slug, const std::string& language) const {
    const std::string name = language == "cuda" ? slug : slug + "." + language;
    return dir_ / "drafts" / (name + extension(language));
}

void source_store::save_draft(const std::string& slug, const std::string& language, const std::string& text) const {
    write_whole(draft_path(slug, language), text);
}

std::optional<std::string> source_store::draft(const std::string& slug, const std::string& language) const {
    const std::filesystem::path path = draft_path(slug, language);
    if (!std::filesystem::is_regular_file(path)) return std::nullopt;
    return read_file_text(path);
}

std::optional<std::string> source_store::last_draft_language(const std::string& slug) const {
    std::optional<std::string> last;
    std::filesystem::file_time_type newest;
    for (const auto& language : solution_languages()) {
        std::error_code error;
        const auto written = std::filesystem::last_write_time(draft_path(slug, language), error);
        if (error || (last && written <= newest)) continue;
        last = language;
        newest = written;
    }
    return last;
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
