#include "disasm/show.hpp"

#include "base/file_text.hpp"
#include "compile/include_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace gpujudge {

namespace {

std::string trimmed(const std::string& text) {
    const auto start = text.find_first_not_of(" \t\r");
    if (start == std::string::npos) return "";
    return text.substr(start, text.find_last_not_of(" \t\r") - start + 1);
}

std::string what_code(const asm_result& result) {
    return result.ptx ? fmt::format("PTX for {} (nvcc -ptx -lineinfo)", result.arch)
                      : fmt::format("SASS for {} (nvdisasm on nvcc's cubin, source lines from -lineinfo)", result.arch);
}

std::string place_header(const code_block& block, const line_lookup& lines) {
    if (!block.at) return "  (no source line)\n";
    const std::string name = std::filesystem::path(block.at->file).filename().string();
    const auto text = lines(*block.at);
    return fmt::format("  {}:{}{}\n", name, block.at->line, text ? "  " + trimmed(*text) : "");
}

}  // namespace

namespace {

std::filesystem::path resolved(const std::filesystem::path& path) {
    std::error_code error;
    const auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
    return error ? std::filesystem::absolute(path).lexically_normal() : canonical;
}

}  // namespace

source_files::source_files(const std::filesystem::path& source) {
    allowed_.push_back(resolved(source));
    for (const auto& header : scan_includes(source).headers) allowed_.push_back(resolved(header));
}

std::optional<std::string> source_files::line(const source_place& at) {
    auto found = files_.find(at.file);
    if (found == files_.end()) {
        std::optional<std::vector<std::string>> lines;
        const bool allowed = std::find(allowed_.begin(), allowed_.end(), resolved(at.file)) != allowed_.end();
        if (const auto text = allowed ? read_file_text(at.file) : std::nullopt) {
            lines.emplace();
            std::istringstream in(*text);
            for (std::string line; std::getline(in, line);) lines->push_back(line);
        }
        found = files_.emplace(at.file, std::move(lines)).first;
    }
    if (!found->second || at.line < 1 || static_cast<std::size_t>(at.line) > found->second->size()) return std::nullopt;
    return (*found->second)[static_cast<std::size_t>(at.line - 1)];
}

std::string asm_text(const problem_spec& spec, const std::filesystem::path& source, const asm_result& result,
                     const line_lookup& lines) {
    std::string text = fmt::format("problem  {} ({})\nsource   {}\ncode     {}\n", spec.title, spec.slug,
                                   source.string(), what_code(result));
    const auto indented = [](const std::string& lines_text) {
        std::string out;
        std::istringstream in(lines_text);
        for (std::string line; std::getline(in, line);) out += "  " + line + "\n";
        return out;
    };
    if (!result.compile.ok) return text + "compile  failed\n" + indented(result.compile.diagnostics);
    text += fmt::format("compile  ok ({})\n", result.compile.cached ? std::string("cached")
                                                                    : fmt::format("{:.1f} s", result.compile.seconds));
    text += indented(result.compile.diagnostics);
    if (result.kernels.empty()) text += fmt::format("\nno kernels: {} launches none of its own\n", source.string());
    for (const auto& kernel : result.kernels) {
        text += fmt::format("\n{} {}\n", kernel.entry ? "kernel" : "device function", kernel.name);
        for (const auto& block : kernel.blocks) {
            text += place_header(block, lines);
            for (const auto& code : block.code) {
                if (code.address.empty() && !code.text.empty() && code.text.back() == ':')
                    text += fmt::format("      {}\n", code.text);  // a label
                else if (code.address.empty())
                    text += fmt::format("        {}\n", code.text);
                else
                    text += fmt::format("        {}  {}\n", code.address, code.text);
            }
        }
    }
    return text;
}

nlohmann::json asm_json(const problem_spec& spec, const std::filesystem::path& source, const asm_result& result,
                        const line_lookup& lines) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& kernel : result.kernels) {
        nlohmann::json blocks = nlohmann::json::array();
        for (const auto& block : kernel.blocks) {
            nlohmann::json code = nlohmann::json::array();
            for (const auto& instruction : block.code)
                code.push_back({{"address", instruction.address}, {"text", instruction.text}});
            nlohmann::json entry = {{"file", nullptr}, {"line", nullptr}, {"source", nullptr}, {"code", code}};
            if (block.at) {
                entry["file"] = block.at->file;
                entry["line"] = block.at->line;
                if (const auto text = lines(*block.at)) entry["source"] = *text;
            }
            blocks.push_back(entry);
        }
        kernels.push_back(
            {{"name", kernel.name}, {"symbol", kernel.symbol}, {"entry", kernel.entry}, {"blocks", blocks}});
    }
    return {
        {"problem", spec.slug},
        {"source", source.string()},
        {"kind", result.ptx ? "ptx" : "sass"},
        {"arch", result.arch},
        {"tool", result.tool},
        {"compile",
         {{"ok", result.compile.ok}, {"cached", result.compile.cached}, {"diagnostics", result.compile.diagnostics}}},
        {"kernels", kernels}};
}

}  // namespace gpujudge
