// `asm`'s parsers over the tools' text (tests/fixtures/disasm/README.md says where each listing comes
// from) and its report, without running any tool.
#include "base/file_text.hpp"
#include "base/temp_dir.hpp"
#include "disasm/listing.hpp"
#include "disasm/show.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES "/disasm/";
const std::string kSource = "/home/learner/reduction/vectorized_float4.cu";
const std::string kIntrinsics = "/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp";
const std::string kKernel =
    "_ZN50_GLOBAL__N__4e05607e_20_vectorized_float4_cu_solve20reduce_float4_kernelEPK6float4PKfPfi";

std::string fixture(const std::string& name) {
    const auto text = read_file_text(kFixtures + name);
    REQUIRE(text);
    return *text;
}

// "file:line" of each block, "-" for a block without line info.
std::vector<std::string> places(const kernel_listing& kernel) {
    std::vector<std::string> out;
    for (const auto& block : kernel.blocks)
        out.push_back(block.at ? std::filesystem::path(block.at->file).filename().string() + ":" +
                                     std::to_string(block.at->line)
                               : "-");
    return out;
}

std::vector<std::string> texts(const code_block& block) {
    std::vector<std::string> out;
    for (const auto& code : block.code) out.push_back(code.text);
    return out;
}

const code_block& block_at(const kernel_listing& kernel, int line) {
    for (const auto& block : kernel.blocks)
        if (block.at && block.at->line == line) return block;
    FAIL("no block at line " << line);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("demangle gives the C++ name, and leaves a name that is not mangled alone", "[disasm]") {
    CHECK(demangle(kKernel) == "(anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, float*, int)");
    CHECK(demangle("_Z5twicef") == "twice(float)");
    CHECK(demangle("vprintf") == "vprintf");
}

TEST_CASE("nvdisasm's listing: per function, instructions under the innermost line of the submission",
          "[disasm][sass]") {
    const auto kernels = parse_sass(fixture("vectorized_float4.nvdisasm"), kSource);
    REQUIRE(kernels.size() == 2);  // the .nv.info section's /*0000*/ lines are data, not a function

    const kernel_listing& helper = kernels[0];
    CHECK_FALSE(helper.entry);  // no STO_CUDA_ENTRY: a device function kept out of line
    CHECK(helper.name == "_INTERNAL_4e05607e_20_vectorized_float4_cu_solve::(anonymous namespace)::warp_sum(float)");
    // Its frames are sm_30_intrinsics.hpp:440 inlined at the submission's line 19: line 19 is shown.
    CHECK(places(helper) == std::vector<std::string>{"vectorized_float4.cu:19"});
    CHECK(texts(helper.blocks[0]) == std::vector<std::string>{"SHFL.DOWN PT, R3, R4, 0x10, 0x1f ;", "FADD R3, R3, R4 ;",
                                                              "RET.REL.NODEC R20 `(" + helper.symbol + ") ;",
                                                              ".L_x_8:", "BRA `(.L_x_8);"});

    const kernel_listing& kernel = kernels[1];
    CHECK(kernel.symbol == kKernel);
    CHECK(kernel.entry);
    // Before the first "//## File" the instruction has no line; a line shown again after another is a
    // new block; the two shuffles of warp_sum (inlined twice, via block_sum) both sit on its line 19.
    CHECK(places(kernel) ==
          std::vector<std::string>{"-", "vectorized_float4.cu:43", "vectorized_float4.cu:38", "vectorized_float4.cu:44",
                                   "vectorized_float4.cu:47", "vectorized_float4.cu:49", "vectorized_float4.cu:44",
                                   "vectorized_float4.cu:53", "vectorized_float4.cu:19", "vectorized_float4.cu:78"});
    CHECK(kernel.blocks[0].code.at(0).address == "0000");
    CHECK(kernel.blocks[0].code.at(0).text == "LDC R1, c[0x0][0x28] ;");
    // A label goes with the instruction after it, so the loop's label heads line 47's loads.
    const code_block& loads = block_at(kernel, 47);
    CHECK(texts(loads) == std::vector<std::string>{".L_x_1:", "LDG.E.EF.128 R4, desc[UR6][R8.64] ;",
                                                   "LDG.E.EF.128 R12, desc[UR6][R8.64+0x2000] ;",
                                                   "LDG.E.EF.128 R16, desc[UR6][R8.64+0x4000] ;",
                                                   "LDG.E.EF.128 R20, desc[UR6][R8.64+0x6000] ;"});
    CHECK(loads.code[0].address.empty());
    CHECK(loads.code[1].address == "0070");
    CHECK(texts(kernel.blocks[3]).back() == "@P0 BRA `(.L_x_0) ;");
    CHECK(texts(block_at(kernel, 19)) ==
          std::vector<std::string>{"SHFL.DOWN PT, R5, R3, 0x10, 0x1f ;", "SHFL.DOWN PT, R7, R6, 0x8, 0x1f ;"});
    // The symbol's end label (.L_x_7) after the last instruction is not shown.
    CHECK(texts(kernel.blocks.back()) ==
          std::vector<std::string>{"STG.E desc[UR6][R2.64], R6 ;", "EXIT ;", ".L_x_6:", "BRA `(.L_x_6);"});
}

TEST_CASE("nvdisasm's listing: with no frame in the preferred file, the innermost frame", "[disasm][sass]") {
    const auto kernels = parse_sass(fixture("vectorized_float4.nvdisasm"), "/elsewhere/other.cu");
    REQUIRE(kernels.size() == 2);
    REQUIRE(kernels[0].blocks.size() == 1);
    CHECK(kernels[0].blocks[0].at == source_place{kIntrinsics, 440});
    CHECK(places(kernels[1])[4] == "sm_30_intrinsics.hpp:273");  // __ldcs, inlined at line 47
}

TEST_CASE("cuobjdump -sass's listing: its functions and instructions, encodings dropped, no lines", "[disasm][sass]") {
    const auto kernels = parse_sass(fixture("vectorized_float4.cuobjdump"), kSource);
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].name == "(anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, float*, int)");
    REQUIRE(kernels[0].blocks.size() == 1);
    CHECK_FALSE(kernels[0].blocks[0].at);
    CHECK(texts(kernels[0].blocks[0]) == std::vector<std::string>{"LDC R1, c[0x0][0x28] ;", "S2R R0, SR_TID.X ;",
                                                                  "LDG.E.EF.128 R4, desc[UR6][R8.64] ;", "EXIT ;",
                                                                  "BRA 0x40;"});
    CHECK(kernels[0].blocks[0].code[4].address == "0040");
}

TEST_CASE("a listing line of 200 000 characters (a kernel's name) is read cut, not overflowing a regex", "[disasm]") {
    const std::string name(200000, 'k');
    const auto sass =
        parse_sass("\t.section\t.text." + name + ",\"ax\",@progbits\n        /*0000*/   EXIT ;\n", kSource);
    REQUIRE(sass.size() == 1);
    CHECK(sass[0].symbol.size() < name.size());
    CHECK(parse_ptx(".visible .entry " + name + "(\n)\n{\nret;\n}\n", kSource).size() == 1);
}

TEST_CASE("nvcc's PTX: a kernel's instructions under their .loc, inlined code at the submission's call",
          "[disasm][ptx]") {
    const std::string source = "/home/learner/reduction/warp_shuffle.cu";
    const auto kernels = parse_ptx(fixture("warp_shuffle.ptx"), source);
    REQUIRE(kernels.size() == 1);
    const kernel_listing& kernel = kernels[0];
    CHECK(kernel.entry);
    CHECK(kernel.name == "(anonymous namespace)::reduce_kernel(float const*, float*, int)");
    const auto shown = places(kernel);
    REQUIRE(shown.size() > 5);
    CHECK(shown[0] == "warp_shuffle.cu:16");  // the parameters' loads, after .loc 1 16 0
    CHECK(shown[1] == "warp_shuffle.cu:18");
    CHECK(std::find(shown.begin(), shown.end(), "sm_30_intrinsics.hpp:440") == shown.end());
    // The shuffle: .loc 2 440 (sm_30_intrinsics.hpp) inlined at 1 12, warp_sum's line in the submission.
    bool found = false;
    for (const auto& block : kernel.blocks)
        for (const auto& code : block.code)
            if (code.text == "shfl.sync.down.b32 %r21|%p4, %r16, %r10, %r19, %r20;") {
                found = true;
                CHECK(block.at == source_place{source, 12});
            }
    CHECK(found);
    // .reg declarations and comments are not code; labels are.
    for (const auto& block : kernel.blocks)
        for (const auto& code : block.code) {
            CHECK(code.text.rfind(".reg", 0) != 0);
            CHECK(code.text.rfind("//", 0) != 0);
            CHECK(code.address.empty());
        }
    CHECK(texts(kernel.blocks.back()).back() == "ret;");
    const code_block& loop = block_at(kernel, 19);
    CHECK(texts(loop).front() == "$L__BB0_2:");
}

TEST_CASE("nvcc's PTX: a device function with a body is listed, a declaration is not, a call is one line",
          "[disasm][ptx]") {
    const auto kernels = parse_ptx(fixture("device_function.ptx"), "/home/learner/funcs.cu");
    REQUIRE(kernels.size() == 2);
    CHECK(kernels[0].name == "twice(float)");
    CHECK_FALSE(kernels[0].entry);
    CHECK(places(kernels[0]) == std::vector<std::string>{"funcs.cu:2", "funcs.cu:3"});
    CHECK(kernels[1].name == "show(float const*, float*, int)");
    CHECK(kernels[1].entry);
    CHECK(places(kernels[1]) ==
          std::vector<std::string>{"funcs.cu:6", "funcs.cu:7", "funcs.cu:8", "funcs.cu:9", "funcs.cu:10"});
    const auto calls = texts(block_at(kernels[1], 8));
    CHECK(std::find(calls.begin(), calls.end(), "call.uni (retval0), _Z5twicef, (param0);") != calls.end());
    const auto prints = texts(block_at(kernels[1], 9));
    CHECK(std::find(prints.begin(), prints.end(), "call.uni (retval0), vprintf, (param0, param1);") != prints.end());
    // "{ // callseq 0, 0" and the call's .param declarations are not instructions.
    for (const auto& text : calls) CHECK(text.find('{') == std::string::npos);
}

TEST_CASE("asm --kernel keeps the kernels whose name contains it, or whose symbol it is", "[disasm]") {
    const auto kernels = parse_sass(fixture("vectorized_float4.nvdisasm"), kSource);
    CHECK(select_kernels(kernels, "").size() == 2);
    REQUIRE(select_kernels(kernels, "reduce_float4").size() == 1);
    CHECK(select_kernels(kernels, "reduce_float4")[0].symbol == kKernel);
    CHECK(select_kernels(kernels, kKernel).size() == 1);
    CHECK(select_kernels(kernels, "warp_sum(float)").size() == 1);
    CHECK(select_kernels(kernels, "histogram").empty());
}

TEST_CASE("asm's report: each source line once, above the instructions it produced", "[disasm]") {
    problem_spec spec;
    spec.slug = "reduction";
    spec.title = "Reduction";
    asm_result result;
    result.arch = "sm_90";
    result.compile.ok = true;
    result.compile.cached = true;
    result.kernels = {{"_Z1kPf",
                       "k(float*)",
                       true,
                       {{std::nullopt, {{"0000", "LDC R1, c[0x0][0x28] ;"}}},
                        {source_place{"mine.cu", 3}, {{"", ".L_x_0:"}, {"0010", "LDG.E.128 R4, desc[UR4][R2.64] ;"}}},
                        {source_place{"mine.cu", 9}, {{"0020", "EXIT ;"}}}}}};
    const line_lookup lines = [](const source_place& at) -> std::optional<std::string> {
        if (at.line == 3) return "    float4 v = input4[i];  ";
        return std::nullopt;  // a line its file does not have
    };
    CHECK(asm_text(spec, "mine.cu", result, lines) ==
          "problem  Reduction (reduction)\n"
          "source   mine.cu\n"
          "code     SASS for sm_90 (nvdisasm on nvcc's cubin, source lines from -lineinfo)\n"
          "compile  ok (cached)\n"
          "\n"
          "kernel k(float*)\n"
          "  (no source line)\n"
          "        0000  LDC R1, c[0x0][0x28] ;\n"
          "  mine.cu:3  float4 v = input4[i];\n"
          "      .L_x_0:\n"
          "        0010  LDG.E.128 R4, desc[UR4][R2.64] ;\n"
          "  mine.cu:9\n"
          "        0020  EXIT ;\n");
    const auto json = asm_json(spec, "mine.cu", result, lines);
    CHECK(json.at("kind") == "sass");
    CHECK(json.at("kernels").at(0).at("blocks").at(0).at("line").is_null());
    CHECK(json.at("kernels").at(0).at("blocks").at(1).at("source") == "    float4 v = input4[i];  ");
    CHECK(json.at("kernels").at(0).at("blocks").at(1).at("code").at(1).at("address") == "0010");
    CHECK(json.at("kernels").at(0).at("blocks").at(2).at("source").is_null());

    result.ptx = true;
    result.compile = {};
    result.compile.diagnostics = "mine.cu(3): error: identifier \"input4\" is undefined\n";
    CHECK(asm_text(spec, "mine.cu", result, lines) ==
          "problem  Reduction (reduction)\n"
          "source   mine.cu\n"
          "code     PTX for sm_90 (nvcc -ptx -lineinfo)\n"
          "compile  failed\n"
          "  mine.cu(3): error: identifier \"input4\" is undefined\n");
}

TEST_CASE("asm reads source lines only from the source and its local headers, whatever file the line info names",
          "[disasm]") {
    temp_dir dir("asm-lines");
    const auto source = dir.path() / "mine.cu";
    std::ofstream(dir.path() / "helpers.cuh") << "// helper line 1\n__device__ int twice(int x) { return 2 * x; }\n";
    std::ofstream(source) << "#include \"helpers.cuh\"\n#line 1 \"" << (dir.path() / "secret.txt").string()
                          << "\"\n__global__ void k() {}\n";
    std::ofstream(dir.path() / "secret.txt") << "the grader's token\n";
    source_files files(source);
    CHECK(files.line({source.string(), 1}) == "#include \"helpers.cuh\"");
    CHECK(files.line({(dir.path() / "." / "helpers.cuh").string(), 2}) ==
          "__device__ int twice(int x) { return 2 * x; }");
    CHECK_FALSE(files.line({(dir.path() / "secret.txt").string(), 1}));
    CHECK_FALSE(files.line({"/etc/passwd", 1}));
}
