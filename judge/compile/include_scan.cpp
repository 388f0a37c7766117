#include "compile/include_scan.hpp"

#include "base/file_text.hpp"

#include <cctype>
#include <set>
#include <sstream>

namespace gpujudge {

namespace {

namespace fs = std::filesystem;

enum class include_kind { none, quoted, angled, computed };

struct include_line {
    include_kind kind = include_kind::none;
    std::string name;
};

std::size_t skip_blanks(const std::string& line, std::size_t at) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    return at;
}

// "#include "a.h"", "  #  include <b.h>", "#include NAME"; #include_next and #import are not
// includes of local files.
include_line parse_include(const std::string& line) {
    std::size_t at = skip_blanks(line, 0);
    if (at >= line.size() || line[at] != '#') return {};
    at = skip_blanks(line, at + 1);
    constexpr const char* kWord = "include";
    if (line.compare(at, 7, kWord) != 0) return {};
    at += 7;
    if (at < line.size() && (std::isalnum(static_cast<unsigned char>(line[at])) || line[at] == '_')) return {};
    at = skip_blanks(line, at);
    if (at < line.size() && line[at] == '<') return {include_kind::angled, {}};
    if (at < line.size() && line[at] == '"') {
        const std::size_t end = line.find('"', at + 1);
        if (end != std::string::npos) return {include_kind::quoted, line.substr(at + 1, end - at - 1)};
    }
    return {include_kind::computed, {}};
}

fs::path identity(const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return error ? fs::absolute(path).lexically_normal() : canonical;
}

struct scanner {
    fs::path root;  // the source's folder, absolute
    std::set<fs::path> seen;
    include_scan result;

    void scan(const fs::path& file, const std::string& text) {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            const include_line include = parse_include(line);
            if (include.kind == include_kind::computed) result.complete = false;
            if (include.kind == include_kind::quoted) visit(file.parent_path(), include.name);
        }
    }

    void visit(const fs::path& includer_dir, const fs::path& name) {
        const fs::path path = name.is_absolute() ? name : includer_dir / name;
        const fs::path key = name.is_absolute() ? name : fs::absolute(path).lexically_normal().lexically_relative(root);
        std::error_code error;
        if (!fs::is_regular_file(path, error)) {
            // Not beside its includer: the compiler looks in the system folders next.
            result.key_parts.push_back(key.generic_string() + " (not beside its includer)");
            return;
        }
        if (!seen.insert(identity(path)).second) return;
        const std::string text = read_file_text(path).value_or("");
        result.headers.push_back(path);
        result.key_parts.push_back(key.generic_string());
        result.key_parts.push_back(text);
        scan(path, text);
    }
};

}  // namespace

include_scan scan_includes(const fs::path& source) {
    scanner state;
    state.root = fs::absolute(source).parent_path().lexically_normal();
    state.seen.insert(identity(source));
    state.scan(source, read_file_text(source).value_or(""));
    return state.result;
}

}  // namespace gpujudge
