#pragma once
// POST /api/problems/<slug>/asm: the page's Machine code panel, the kernels of a CUDA source as
// `gpujudge asm --json` prints them. Compiled and read by judge/disasm (disassemble, then asm_json), the
// command's own code: nothing of it is done again here.
#include "compile/compiler.hpp"
#include "disasm/run.hpp"
#include "spec/problem_spec.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace gpujudge {

// What a request may choose: "kind", "sass" (the default) or "ptx"; api_error 400 for anything else.
asm_request machine_code_request(const nlohmann::json& request);

// `asm --json`'s object for `source`; a compile error is one too (compile.ok false, its diagnostics).
// Throws as disassemble does: usage_error for a Python source, environment_error without nvdisasm (SASS) or
// nvcc, with the toolkit lookup's message (the API's 400 "bad_request" and 500 "environment").
nlohmann::json machine_code_json(const problem_spec& spec, const std::filesystem::path& source,
                                 const asm_request& request, const compiler_settings& compiler);

}  // namespace gpujudge
