#pragma once
// Where the server keeps the sources the page sends, under names of its own making, never the
// client's: each judged source once, under its content hash (sources/<slug>/<hash>.cu, or .py), so
// that the history's path to it keeps showing that very version; and one draft per problem and
// language, saved as the learner types: drafts/<slug>.cu for CUDA (the name drafts had before the page
// knew other languages, so those drafts are still found), drafts/<slug>.pytorch.py and
// drafts/<slug>.triton.py. `slug` is always a catalog's own slug, `language` one of
// solution_languages() (catalog/starter.hpp), both checked before they get here.
#include <filesystem>
#include <optional>
#include <string>

namespace gpujudge {

class source_store {
public:
    // `cuda_extension`: ".cu", or ".cpp" for the host backend's C++ fakes (which stand for CUDA there).
    source_store(std::filesystem::path dir, std::string cuda_extension);

    // The extension a source in `language` is kept with: the CUDA one given, else the language's own (.py).
    std::string extension(const std::string& language) const;

    // The path of `text` kept for judging (written once, whole, before any judge sees it).
    std::filesystem::path keep(const std::string& slug, const std::string& language, const std::string& text) const;
    void save_draft(const std::string& slug, const std::string& language, const std::string& text) const;
    std::optional<std::string> draft(const std::string& slug, const std::string& language) const;
    // The language of the draft saved last, none when there is no draft.
    std::optional<std::string> last_draft_language(const std::string& slug) const;

    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path draft_path(const std::string& slug, const std::string& language) const;

    std::filesystem::path dir_;
    std::string cuda_extension_;
};

// <the history's folder>/serve
std::filesystem::path default_store_dir();

// The text of the file an attempt names, if it still holds the version judged (its hash matches)
// and is not larger than `limit` bytes; nullopt otherwise.
std::optional<std::string> attempt_source(const std::string& path, const std::string& hash, std::uintmax_t limit);

}  // namespace gpujudge
