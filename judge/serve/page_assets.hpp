#pragma once
// Everything the page loads, read into memory when the server starts and served from there: the
// page itself (judge/serve/page/) and the libraries Debian packages (CodeMirror from
// libjs-codemirror, marked from libjs-marked). Nothing comes from the network, and no request
// names a file: a URL either is one of these or is not found.
#include <filesystem>
#include <map>
#include <string>

namespace gpujudge {

struct page_asset {
    std::string content_type;
    std::string body;
};

class page_assets {
public:
    // Throws environment_error naming a file that is missing and the package that has it.
    page_assets(const std::filesystem::path& page_dir, const std::filesystem::path& javascript_dir);
    const page_asset* find(const std::string& url) const;

private:
    std::map<std::string, page_asset> assets_;
};

// The page: <this binary>/../share/gpujudge/page where tests/gpu/package.sh put it, else the source
// tree's judge/serve/page.
std::filesystem::path default_page_dir();

// Debian's JavaScript libraries: /usr/share/javascript, else <this binary>/../share/javascript
// (where package.sh puts a copy for machines without the packages).
std::filesystem::path default_javascript_dir();

}  // namespace gpujudge
