#include "serve/page_assets.hpp"

#include "base/file_text.hpp"
#include "base/user_errors.hpp"

#include <fmt/format.h>

namespace gpujudge {

namespace {

struct asset_file {
    const char* url;
    const char* path;     // below the page folder, or the JavaScript folder for a package's file
    const char* package;  // the Debian package that holds it; null: the page's own
};

const asset_file kAssets[] = {
    {"/", "index.html", nullptr},
    {"/page/app.js", "app.js", nullptr},
    {"/page/cuda.js", "cuda.js", nullptr},
    {"/page/leaderboard.js", "leaderboard.js", nullptr},
    {"/page/machine_code.js", "machine_code.js", nullptr},
    {"/page/path.js", "path.js", nullptr},
    {"/page/style.css", "style.css", nullptr},
    {"/vendor/codemirror.js", "codemirror/lib/codemirror.js", "libjs-codemirror"},
    {"/vendor/codemirror.css", "codemirror/lib/codemirror.css", "libjs-codemirror"},
    {"/vendor/clike.js", "codemirror/mode/clike/clike.js", "libjs-codemirror"},
    {"/vendor/python.js", "codemirror/mode/python/python.js", "libjs-codemirror"},
    {"/vendor/matchbrackets.js", "codemirror/addon/edit/matchbrackets.js", "libjs-codemirror"},
    {"/vendor/marked.js", "marked/marked.min.js", "libjs-marked"},
};

std::string content_type(const std::string& path) {
    const std::string extension = std::filesystem::path(path).extension();
    if (extension == ".html") return "text/html; charset=utf-8";
    if (extension == ".css") return "text/css; charset=utf-8";
    return "text/javascript; charset=utf-8";
}

std::filesystem::path this_binary_dir() {
    std::error_code error;
    return std::filesystem::read_symlink("/proc/self/exe", error).parent_path();
}

}  // namespace

page_assets::page_assets(const std::filesystem::path& page_dir, const std::filesystem::path& javascript_dir) {
    for (const auto& file : kAssets) {
        const std::filesystem::path path = (file.package ? javascript_dir : page_dir) / file.path;
        auto body = read_file_text(path);
        if (!body)
            throw environment_error(
                file.package ? fmt::format("{} not found: install {} (apt-get install {}), or name the folder that "
                                           "holds codemirror/ and marked/ with --assets",
                                           path.string(), file.package, file.package)
                             : fmt::format("{} not found: the page's files are missing", path.string()));
        assets_[file.url] = {content_type(file.path), std::move(*body)};
    }
}

const page_asset* page_assets::find(const std::string& url) const {
    const auto found = assets_.find(url);
    return found == assets_.end() ? nullptr : &found->second;
}

std::filesystem::path default_page_dir() {
    const std::filesystem::path packaged = this_binary_dir() / ".." / "share" / "gpujudge" / "page";
    if (std::filesystem::exists(packaged / "index.html")) return packaged.lexically_normal();
    return std::filesystem::path(GPUJUDGE_SOURCE_DIR) / "judge" / "serve" / "page";
}

std::filesystem::path default_javascript_dir() {
    const std::filesystem::path debian = "/usr/share/javascript";
    if (std::filesystem::exists(debian / "codemirror" / "lib" / "codemirror.js")) return debian;
    return (this_binary_dir() / ".." / "share" / "javascript").lexically_normal();
}

}  // namespace gpujudge
