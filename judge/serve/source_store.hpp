#pragma once
// Where the server keeps the sources the page sends, under names of its own making, never the
// client's: each judged source once, under its content hash (sources/<slug>/<hash>.cu), so that the
// history's path to it keeps showing that very version; and one draft per problem
// (drafts/<slug>.cu), saved as the learner types. `slug` is always a catalog's own slug.
#include <filesystem>
#include <optional>
#include <string>

namespace gpujudge {

class source_store {
public:
    // `extension`: ".cu", or ".cpp" for the host backend's C++ fakes.
    source_store(std::filesystem::path dir, std::string extension);

    // The path of `text` kept for judging (written once, whole, before any judge sees it).
    std::filesystem::path keep(const std::string& slug, const std::string& text) const;
    void save_draft(const std::string& slug, const std::string& text) const;
    std::optional<std::string> draft(const std::string& slug) const;

    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
    std::string extension_;
};

// <the history's folder>/serve
std::filesystem::path default_store_dir();

// The text of the file an attempt names, if it still holds the version judged (its hash matches)
// and is not larger than `limit` bytes; nullopt otherwise.
std::optional<std::string> attempt_source(const std::string& path, const std::string& hash, std::uintmax_t limit);

}  // namespace gpujudge
