#include "serve/api/machine_code.hpp"

#include "disasm/show.hpp"
#include "serve/api/api_error.hpp"

namespace gpujudge {

asm_request machine_code_request(const nlohmann::json& request) {
    asm_request code;
    code.ptx = chosen_value(request, "kind", {"sass", "ptx"}) == "ptx";
    return code;
}

nlohmann::json machine_code_json(const problem_spec& spec, const std::filesystem::path& source,
                                 const asm_request& request, const compiler_settings& compiler) {
    const asm_result result = disassemble(spec, source, request, compiler);
    source_files files(source);
    return asm_json(spec, source, result, [&files](const source_place& at) { return files.line(at); });
}

}  // namespace gpujudge
