#pragma once
// `asm`'s report: the kernels' code with each source line printed once above the instructions it
// produced, as text or as one JSON object.
#include "disasm/run.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// The text of a source line, none when its file cannot be read or is shorter.
using line_lookup = std::function<std::optional<std::string>(const source_place&)>;

// Reads each file once, from disk: only the source and the local headers it includes. The line info names
// whatever file the source says (`#line 1 "/home/you/.ssh/id_rsa"`), and this runs outside the sandbox.
class source_files {
public:
    explicit source_files(const std::filesystem::path& source);
    std::optional<std::string> line(const source_place& at);

private:
    std::vector<std::filesystem::path> allowed_;
    std::map<std::string, std::optional<std::vector<std::string>>> files_;
};

// problem, source, what the code is and the compile; then per kernel (its demangled name), each source
// line ("file.cu:43  <its text, trimmed>") once above the instructions it produced.
std::string asm_text(const problem_spec& spec, const std::filesystem::path& source, const asm_result& result,
                     const line_lookup& lines);

// {problem, source, kind: "sass"|"ptx", arch, tool, compile: {ok, cached, diagnostics}, kernels: [{name, symbol,
// entry, blocks: [{file, line, source, code: [{address, text}]}]}]}; file, line and source are null before any
// line info.
nlohmann::json asm_json(const problem_spec& spec, const std::filesystem::path& source, const asm_result& result,
                        const line_lookup& lines);

}  // namespace gpujudge
