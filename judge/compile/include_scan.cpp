#include "compile/include_scan.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
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

// "#include "a.h"", "  #  include <b.h>", "#include NAME". #include_next <c.h> goes on along the
// system folders; #include_next "c.h" may read a local file: not keyed (computed).
include_line parse_include(const std::string& line) {
    std::size_t at = skip_blanks(line, 0);
    if (at >= line.size() || line[at] != '#') return {};
    at = skip_blanks(line, at + 1);
    if (line.compare(at, 7, "include") != 0) return {};
    at += 7;
    const bool next = line.compare(at, 5, "_next") == 0;
    if (next) at += 5;
    if (at < line.size() && (std::isalnum(static_cast<unsigned char>(line[at])) || line[at] == '_')) return {};
    at = skip_blanks(line, at);
    if (at < line.size() && line[at] == '<') return {include_kind::angled, {}};
    if (next) return {include_kind::computed, {}};
    if (at < line.size() && line[at] == '"') {
        const std::size_t end = line.find('"', at + 1);
        if (end != std::string::npos) return {include_kind::quoted, line.substr(at + 1, end - at - 1)};
    }
    return {include_kind::computed, {}};
}

// Line ends as gcc reads them: CR LF, LF, and a lone CR too (`// x` CR `#include "a.h"` is two lines).
std::string unix_lines(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r') {
            out += text[i];
        } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
            out += '\n';
        }
    }
    return out;
}

// The text as the preprocessor reads its lines: an editor's BOM dropped, line ends made LF, and each
// backslash-newline spliced (blanks before the newline allowed, as gcc allows them), so that
// `#inc\` + `lude "a.h"` is one line.
std::string logical_text(const std::string& raw) {
    const std::string text = unix_lines(raw);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; i < text.size(); ++i) {
        if (text[i] == '\\') {
            std::size_t end = i + 1;
            while (end < text.size() && (text[end] == ' ' || text[end] == '\t' || text[end] == '\r')) ++end;
            if (end < text.size() && text[end] == '\n') {
                i = end;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

// Whether a line the scan did not read as an include may still make the compiler read a file: an
// include hidden behind a comment, a digraph (%:) or a trigraph, __has_include, #import, #embed, or the assembler's
// .include and .incbin in an asm string. Then the key cannot be trusted (a classmate's library with the same top file
// would be reused). A whole-line // comment that does not end a block comment reads nothing.
bool may_read_a_file(const std::string& line) {
    const std::size_t at = skip_blanks(line, 0);
    const bool comment = line.compare(at, 2, "//") == 0 && line.find("*/") == std::string::npos;
    const bool directive = at < line.size() && line[at] == '#';
    for (const char* always : {"incbin", "?\?=", "?\?/"})  // trigraphs, escaped here
        if (line.find(always) != std::string::npos) return true;
    if (line.find("include") != std::string::npos) return !comment;
    return directive && (line.find("embed") != std::string::npos || line.find("import") != std::string::npos);
}

fs::path identity(const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return error ? fs::absolute(path).lexically_normal() : canonical;
}

struct scanner {
    fs::path root;                         // the source's folder, absolute
    fs::path real_root;                    // and where it resolves
    std::map<fs::path, std::string> seen;  // each file read, by what it is, with the key it was read as
    std::uintmax_t total_bytes = 0;
    include_scan result;

    // The header's bytes, or why it cannot be compiled (then `result.refused` says so). The bytes
    // read are counted, never the size a file states: a sparse file states a GiB, /proc's say 0.
    std::optional<std::string> readable(const fs::path& path) {
        // One the judge cannot read is empty here, and to the compiler, which is shown the bytes read.
        std::string text = read_file_head(path, kMaxHeaderBytes).value_or("");
        if (text.size() > kMaxHeaderBytes)
            result.refused = fmt::format("{}: a header larger than {} MiB", path.string(), kMaxHeaderBytes >> 20);
        else if ((total_bytes += text.size()) > kMaxHeadersBytes)
            result.refused = fmt::format("{}: the headers included hold more than {} MiB together", path.string(),
                                         kMaxHeadersBytes >> 20);
        if (!result.refused.empty()) return std::nullopt;
        // No part of a key may hold NUL, which separates the parts (content_hash): a header of two
        // headers' bytes would take their key.
        if (text.find('\0') != std::string::npos) {
            result.refused = fmt::format("{}: not a header: it holds NUL bytes", path.string());
            return std::nullopt;
        }
        return text;
    }

    void scan(const fs::path& file, const std::string& text) {
        std::istringstream lines(logical_text(text));
        for (std::string line; std::getline(lines, line);) {
            const include_line include = parse_include(line);
            if (include.kind == include_kind::computed || (include.kind == include_kind::none && may_read_a_file(line)))
                result.complete = false;
            if (include.kind == include_kind::quoted) visit(file.parent_path(), include.name);
        }
    }

    // Whether the compile could be shown the file (compiler.cpp's bind_source binds the source's folder's
    // files alone): else it is never opened here. The judge reads with its own rights, and its refusals
    // ("not a header: it holds NUL bytes") told a red team's source which of the judge's private files
    // exist: the history, the caches, a classmate's hand-in.
    bool in_source_folder(const fs::path& path) const {
        std::error_code error;
        const fs::path real = fs::weakly_canonical(path, error);
        return lies_in(fs::absolute(path).lexically_normal(), root) && !error && lies_in(real, real_root);
    }

    void visit(const fs::path& includer_dir, const fs::path& name) {
        const fs::path path = name.is_absolute() ? name : includer_dir / name;
        const fs::path key = name.is_absolute() ? name : fs::absolute(path).lexically_normal().lexically_relative(root);
        if (!in_source_folder(path)) {
            // The system's (read-only in the compile's sandbox, as an <include> is) or nothing the compile sees.
            result.key_parts.push_back(key.generic_string() + " (outside the source's folder)");
            return;
        }
        std::error_code error;
        if (!fs::is_regular_file(path, error)) {
            // Not beside its includer: the compiler looks in the system folders next.
            result.key_parts.push_back(key.generic_string() + " (not beside its includer)");
            return;
        }
        const auto [first, inserted] = seen.emplace(identity(path), key.generic_string());
        if (!inserted) {
            // Read before under another name (a link, or ./a.h beside a.h): which file it is, is part of
            // the key. The same name again (a header included twice, a diamond) adds nothing.
            if (first->second != key.generic_string())
                result.key_parts.push_back(key.generic_string() + " (read before as " + first->second + ")");
            return;
        }
        if (!result.refused.empty()) return;
        const auto read = readable(path);
        if (!read) return;
        const std::string& text = *read;
        result.headers.push_back(path);
        result.texts.push_back(text);
        result.key_parts.push_back(key.generic_string());
        result.key_parts.push_back(text);
        scan(path, text);
    }
};

}  // namespace

bool lies_in(const fs::path& file, const fs::path& folder) {
    const fs::path relative = file.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != "..";
}

include_scan scan_includes(const fs::path& source) {
    return scan_includes(source, read_file_text(source).value_or(""));
}

include_scan scan_includes(const fs::path& source, const std::string& text) {
    scanner state;
    state.root = fs::absolute(source).parent_path().lexically_normal();
    std::error_code error;
    state.real_root = fs::weakly_canonical(state.root, error);
    state.seen.emplace(identity(source), source.filename().generic_string());
    state.scan(source, text);
    return state.result;
}

std::string submission_hash(const fs::path& source, const std::string& text, const include_scan& includes) {
    const std::string own = content_hash({text});
    if (includes.complete && includes.key_parts.empty()) return own;  // a file alone keeps gradebooks' hashes
    std::vector<std::string> parts{own};
    parts.insert(parts.end(), includes.key_parts.begin(), includes.key_parts.end());
    if (!includes.complete) {  // this student's own: where it lies, and every file beside it
        parts.push_back(fs::absolute(source).string());
        // A link is hashed as where it points, never followed (a link to /proc/self/pagemap would be
        // read to the limit); a file's first kMaxHeadersBytes (the key is this student's alone).
        std::vector<fs::path> beside;
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(source.parent_path(), error))
            if (entry.is_symlink(error) || entry.is_regular_file(error)) beside.push_back(entry.path());
        std::sort(beside.begin(), beside.end());
        for (const auto& file : beside) {
            const bool link = fs::is_symlink(file, error);
            const auto head = link ? std::nullopt : read_file_head(file, kMaxHeadersBytes);
            parts.insert(parts.end(),
                         {file.filename().string(), link ? "link to " + fs::read_symlink(file, error).string()
                                                         : content_hash({head.value_or("")})});
        }
    }
    return content_hash(parts);
}

}  // namespace gpujudge
