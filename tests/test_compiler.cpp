// The compiler and its cache: what goes into the key (source, local headers, prototype, tools), what
// stays out (the path), and what a learner sees (file:line, warnings on every compile, the expected
// signature). Host builds (compile_host) run the same cache code as nvcc builds in a fraction of the
// time; two tests build with nvcc. And the compile's sandbox: a source sees its own folder, never the
// judge's cache or history, and what the compiler leaves is taken only as a regular file.
#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/regex_line.hpp"
#include "base/temp_dir.hpp"
#include "compile/compiler.hpp"
#include "compile/error_reason.hpp"
#include "compile/include_scan.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <thread>

using namespace gpujudge;

namespace {

namespace fs = std::filesystem;

const problem_spec& tiny_sum() {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return spec;
}

// A fresh cache and a folder of sources for each test: what is cached is what the test did.
struct workspace {
    temp_dir sources{"compiler-test-sources"};
    temp_dir cache{"compiler-test-cache"};
    compiler_settings settings;

    workspace() {
        settings.cache_dir = cache.path();
        settings.nvcc = fs::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "nvcc";
    }
    fs::path write(const std::string& name, const std::string& text) const {
        const fs::path path = sources.path() / name;
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    compile_result host(const fs::path& source, const std::string& function = "solve") const {
        return compile_host(tiny_sum(), source, function, settings);
    }
};

const char* const kSolve =
    "#include \"sum.h\"\n"
    "extern \"C\" void solve(const float* input, float* output, int N) { output[0] = sum(input, N); }\n";
const char* const kSumHeader =
    "#pragma once\n"
    "#include \"detail/add.h\"\n"
    "inline float sum(const float* x, int n) {\n"
    "    float s = 0;\n"
    "    for (int i = 0; i < n; ++i) s = add(s, x[i]);\n"
    "    return s;\n"
    "}\n";
const char* const kAdd = "#pragma once\ninline float add(float a, float b) { return a + b; }\n";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A source that embeds `file` into its library, as a cheat would the cached expected outputs.
std::string embeds(const fs::path& file) {
    return "asm(\".section .rodata\\n.incbin \\\"" + file.string() +
           "\\\"\\n.previous\");\n"
           "extern \"C\" void solve(const float*, float* output, int) { output[0] = 0; }\n";
}

// Whether the library at `path` exports `symbol` to dlsym, as the runner looks it up.
bool exports(const fs::path& path, const char* symbol) {
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) return false;
    const bool found = dlsym(library, symbol) != nullptr;
    dlclose(library);
    return found;
}

// Runs the test from another working directory, and comes back.
struct working_directory {
    fs::path before = fs::current_path();
    explicit working_directory(const fs::path& path) { fs::current_path(path); }
    ~working_directory() { fs::current_path(before); }
};

}  // namespace

TEST_CASE("the forced header declares the expected prototype and uses it", "[compiler]") {
    const std::string header = forced_header(tiny_sum(), "solve");
    CHECK(contains(header,
                   "extern \"C\" __attribute__((visibility(\"default\"))) void solve(const float* input, "
                   "float* output, int N);\n"));
    // The use makes a missing definition fail to link instead of loading without it.
    CHECK(contains(header,
                   "static void (*const gpujudge_expected_solve)(const float*, float*, int) "
                   "__attribute__((used)) = solve;"));
}

TEST_CASE("a solve defined hidden is exported all the same: it links, so it must load", "[compiler]") {
    workspace space;
    const fs::path attribute =
        space.write("attribute.cpp",
                    "extern \"C\" __attribute__((visibility(\"hidden\"))) void solve(const float*, float* o, int) {\n"
                    "    o[0] = 1;\n}\n");
    const fs::path pragma = space.write("pragma.cpp",
                                        "#pragma GCC visibility push(hidden)\n"
                                        "extern \"C\" void solve(const float*, float* o, int) { o[0] = 1; }\n"
                                        "#pragma GCC visibility pop\n");
    for (const fs::path& source : {attribute, pragma}) {
        const compile_result built = space.host(source);
        REQUIRE(built.ok);
        CHECK(exports(built.library, "solve"));
    }
}

TEST_CASE("a relative source named like an option is compiled as the file it is", "[compiler]") {
    workspace space;
    space.write("-dash.cpp", "extern \"C\" void solve(const float*, float* o, int) { o[0] = 1; }\n");
    const working_directory here(space.sources.path());
    const compile_result built = space.host("-dash.cpp");
    REQUIRE(built.ok);
    CHECK(exports(built.library, "solve"));
}

TEST_CASE("a compiler that prints past the output limit is stopped, and says so", "[compiler]") {
    workspace space;
    space.settings.limits.output_mib = 1;
    std::string flood;
    for (int i = 0; i < 8000; ++i) flood += "#warning \"" + std::string(200, 'w') + "\"\n";
    const compile_result built = space.host(
        space.write("floods.cpp", flood + "extern \"C\" void solve(const float*, float* o, int) { o[0] = 1; }\n"));
    CHECK_FALSE(built.ok);
    CHECK(built.diagnostics.rfind("the compiler printed more than 1 MiB of diagnostics and was stopped\n", 0) == 0);
    CHECK(built.diagnostics.size() < 64 * 1024);  // what is shown is trimmed
}

TEST_CASE("a build is cached: the second compile reuses the same library", "[compiler]") {
    workspace space;
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    const fs::path source = space.write("solution.cpp", kSolve);
    const compile_result first = space.host(source);
    REQUIRE(first.ok);
    CHECK_FALSE(first.cached);
    CHECK(fs::exists(first.library));
    const compile_result second = space.host(source);
    CHECK(second.ok);
    CHECK(second.cached);
    CHECK(second.library == first.library);
}

TEST_CASE("changing a header the source includes, even through another header, recompiles", "[compiler]") {
    workspace space;
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    const fs::path source = space.write("solution.cpp", kSolve);
    const compile_result original = space.host(source);
    REQUIRE(original.ok);

    space.write("detail/add.h", "#pragma once\ninline float add(float a, float b) { return a + b + 1; }\n");
    const compile_result changed = space.host(source);
    CHECK(changed.ok);
    CHECK_FALSE(changed.cached);
    CHECK(changed.library != original.library);

    space.write("detail/add.h", kAdd);  // back as it was: the first library again
    const compile_result restored = space.host(source);
    CHECK(restored.cached);
    CHECK(restored.library == original.library);
}

TEST_CASE("the prototype is part of the key: one source built for two functions is two libraries", "[compiler]") {
    workspace space;
    const fs::path source =
        space.write("both.cpp",
                    "extern \"C\" void solve(const float*, float* output, int) { output[0] = 1; }\n"
                    "extern \"C\" void reference(const float*, float* output, int) { output[0] = 2; }\n");
    const compile_result solve = space.host(source, "solve");
    const compile_result reference = space.host(source, "reference");
    CHECK(solve.ok);
    CHECK(reference.ok);
    CHECK_FALSE(reference.cached);
    CHECK(solve.library != reference.library);
}

TEST_CASE("the same file by another path, or a copy elsewhere with its headers, is one cache entry", "[compiler]") {
    workspace space;
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    const fs::path source = space.write("solution.cpp", kSolve);
    const compile_result first = space.host(source);
    REQUIRE(first.ok);

    const compile_result dotted = space.host(space.sources.path() / "detail" / ".." / "solution.cpp");
    CHECK(dotted.cached);
    CHECK(dotted.library == first.library);

    const fs::path link = space.sources.path() / "link.cpp";
    fs::create_symlink(source, link);
    const compile_result linked = space.host(link);
    CHECK(linked.cached);
    CHECK(linked.library == first.library);

    space.write("copy/sum.h", kSumHeader);
    space.write("copy/detail/add.h", kAdd);
    const compile_result copied = space.host(space.write("copy/solution.cpp", kSolve));
    CHECK(copied.cached);
    CHECK(copied.library == first.library);
    // The library's line info names the path first compiled: sanitize maps its findings through it.
    CHECK(first.compiled_from == source);
    CHECK(copied.compiled_from == source);
}

TEST_CASE("warnings are kept with the cached library and shown on every compile, with the path used", "[compiler]") {
    workspace space;
    const fs::path source =
        space.write("warns.cpp",
                    "#warning \"slow path\"\n"
                    "extern \"C\" void solve(const float* input, float* output, int) { output[0] = input[0]; }\n");
    const compile_result first = space.host(source);
    REQUIRE(first.ok);
    CHECK(contains(first.diagnostics, source.string() + ":1:2: warning: #warning \"slow path\""));
    const compile_result second = space.host(source);
    CHECK(second.cached);
    CHECK(second.diagnostics == first.diagnostics);

    const fs::path link = space.sources.path() / "other_name.cpp";
    fs::create_symlink(source, link);
    const compile_result linked = space.host(link);
    CHECK(linked.cached);
    CHECK(contains(linked.diagnostics, link.string() + ":1:2: warning: #warning \"slow path\""));
    CHECK_FALSE(contains(linked.diagnostics, source.string()));
}

TEST_CASE("a compile error reports file:line and the expected signature, and is not cached", "[compiler]") {
    workspace space;
    const fs::path source = space.write("broken.cpp",
                                        "// line 1\n"
                                        "extern \"C\" void solve(const float* input, float* output, int N) {\n"
                                        "    output[0] = input[0] + undeclared;\n"
                                        "}\n");
    const compile_result result = space.host(source);
    CHECK_FALSE(result.ok);
    CHECK_FALSE(result.undefined_function);
    CHECK(contains(result.diagnostics, source.string() + ":3:"));
    CHECK(contains(result.diagnostics, "error"));
    CHECK(
        contains(result.diagnostics,
                 "The expected signature is:\n  extern \"C\" void solve(const float* input, float* output, int N)\n"));
    CHECK_FALSE(space.host(source).cached);
}

TEST_CASE("a missing function is named with its exact definition", "[compiler]") {
    workspace space;
    const fs::path source =
        space.write("other.cpp", "extern \"C\" void solve_it(const float*, float* output, int) { output[0] = 0; }\n");
    const compile_result result = space.host(source);
    CHECK_FALSE(result.ok);
    CHECK(result.undefined_function);
    CHECK(contains(result.diagnostics,
                   "solve is not defined. Define it exactly as:\n"
                   "  extern \"C\" void solve(const float* input, float* output, int N)\n"));
}

TEST_CASE("a header named through a macro cannot be keyed: such a source is compiled every time", "[compiler]") {
    workspace space;
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    const fs::path source =
        space.write("macro.cpp", std::string("#define HEADER \"sum.h\"\n#include HEADER\n") +
                                     (std::string(kSolve).substr(std::string(kSolve).find('\n') + 1)));
    const compile_result first = space.host(source);
    REQUIRE(first.ok);
    const compile_result second = space.host(source);
    CHECK(second.ok);
    CHECK_FALSE(second.cached);
}

TEST_CASE("nvcc builds are cached by their headers too, and keep their warnings", "[compiler][nvcc]") {
    workspace space;
    space.write("scale.cuh", "#pragma once\n__device__ inline float scale(float x) { return 2 * x; }\n");
    const fs::path source =
        space.write("solution.cu",
                    "#include \"scale.cuh\"\n"
                    "#warning \"slow path\"\n"
                    "__global__ void twice(const float* in, float* out) { out[0] = scale(in[0]); }\n"
                    "extern \"C\" void solve(const float* input, float* output, int) {\n"
                    "    twice<<<1, 1>>>(input, output);\n"
                    "}\n");
    const compile_result first = compile_solution(tiny_sum(), source, space.settings);
    REQUIRE(first.ok);
    CHECK(contains(first.diagnostics, "slow path"));
    const compile_result second = compile_solution(tiny_sum(), source, space.settings);
    CHECK(second.cached);
    CHECK(second.diagnostics == first.diagnostics);
    space.write("scale.cuh", "#pragma once\n__device__ inline float scale(float x) { return 3 * x; }\n");
    const compile_result changed = compile_solution(tiny_sum(), source, space.settings);
    CHECK(changed.ok);
    CHECK_FALSE(changed.cached);
}

TEST_CASE("nvcc reads any learner file as CUDA: .c, .cpp, .CU", "[compiler][nvcc]") {
    workspace space;
    const std::string text =
        "__global__ void copy(const float* in, float* out) { out[threadIdx.x] = in[blockIdx.x]; }\n"
        "extern \"C\" void solve(const float* input, float* output, int) { copy<<<1, 1>>>(input, output); }\n";
    for (const std::string name : {"kernel.c", "kernel.cpp", "KERNEL.CU"}) {
        const compile_result built = compile_solution(tiny_sum(), space.write(name, text), space.settings);
        INFO(name << ": " << built.diagnostics);
        CHECK(built.ok);
    }
}

TEST_CASE("a source cannot include the judge's cache, even where the source's folder holds it", "[compiler][sandbox]") {
    workspace space;
    space.settings.cache_dir = space.sources.path() / ".cache" / "gpujudge";  // the source in $HOME, say
    const fs::path secret = space.write(".cache/gpujudge/expected/answers.h", "static const float kAnswer = 42;\n");
    const fs::path source = space.write("cheat.cpp", "#include \"" + secret.string() +
                                                         "\"\n"
                                                         "extern \"C\" void solve(const float*, float* output, int) "
                                                         "{ output[0] = kAnswer; }\n");
    const compile_result result = space.host(source);
    CHECK_FALSE(result.ok);
    CHECK(contains(result.diagnostics,
                   source.string() + ":1:10: fatal error: " + secret.string() + ": No such file or directory"));
    space.settings.sandbox = false;  // the sandbox is what stops it: without, the same file compiles
    CHECK(space.host(source).ok);
}

TEST_CASE("a cache reached through a link in the source's folder is out of reach too", "[compiler][sandbox]") {
    workspace space;
    const temp_dir elsewhere("compiler-test-elsewhere");  // ~/.cache a link to another disk, say
    fs::create_directory_symlink(elsewhere.path(), space.sources.path() / ".cache");
    space.settings.cache_dir = space.sources.path() / ".cache" / "gpujudge";
    const fs::path secret = space.write(".cache/gpujudge/expected/answers.h", "static const float kAnswer = 42;\n");
    const fs::path source = space.write("cheat.cpp", "#include \"" + secret.string() +
                                                         "\"\n"
                                                         "extern \"C\" void solve(const float*, float* output, int) "
                                                         "{ output[0] = kAnswer; }\n");
    const compile_result result = space.host(source);
    CHECK_FALSE(result.ok);
    CHECK(contains(result.diagnostics,
                   source.string() + ":1:10: fatal error: " + secret.string() + ": No such file or directory"));
    const fs::path fair = space.write(
        "fair.cpp", "extern \"C\" void solve(const float* input, float* output, int) { output[0] = input[0]; }\n");
    CHECK(space.host(fair).ok);  // the sandbox starts: no mount through the link
}

TEST_CASE("nvcc cannot include the judge's cache either", "[compiler][sandbox][nvcc]") {
    workspace space;
    space.settings.cache_dir = space.sources.path() / "cache";
    const fs::path secret = space.write("cache/expected/answers.h", "static const float kAnswer = 42;\n");
    const fs::path source = space.write("cheat.cu", "#include \"" + secret.string() +
                                                        "\"\n"
                                                        "extern \"C\" void solve(const float*, float* output, int) "
                                                        "{ output[0] = kAnswer; }\n");
    const compile_result result = compile_solution(tiny_sum(), source, space.settings);
    CHECK_FALSE(result.ok);
    CHECK(contains(result.diagnostics,
                   source.string() + ":1:10: fatal error: " + secret.string() + ": No such file or directory"));
}

TEST_CASE("a source cannot embed a file of the history's folder, but can embed its own files", "[compiler][sandbox]") {
    workspace space;
    space.settings.hidden = {space.sources.path() / ".local" / "share" / "gpujudge"};
    const fs::path history = space.write(".local/share/gpujudge/history.db", "every result so far");
    const compile_result stolen = space.host(space.write("steals.cpp", embeds(history)));
    CHECK_FALSE(stolen.ok);
    CHECK(contains(stolen.diagnostics, "Error: file not found: " + history.string()));
    const compile_result own = space.host(space.write("own.cpp", embeds(space.write("table.bin", "a table"))));
    INFO(own.diagnostics);
    CHECK(own.ok);
    space.settings.sandbox = false;  // the sandbox is what stops it
    CHECK(space.host(space.write("steals.cpp", embeds(history))).ok);
}

TEST_CASE("a file of the source's folder that the key does not hold is not there for the compiler",
          "[compiler][sandbox]") {
    // Red team 5: ways to read a file beside the source that the include scan does not see. The
    // compiler sees only the source and the headers the scan found, so none of them builds a library
    // from bytes its key lacks (in grade: a classmate's library reused for another flag.bin).
    workspace space;
    const fs::path flag = space.write("split.cpp.flag", "G");
    const std::string solve = "extern \"C\" void solve(const float*, float* output, int) { output[0] = 0; }\n";
    const fs::path split =
        space.write("split.cpp", R"(asm(".section .rodata\n.in" "cbin \"" __FILE__ ".flag\"\n.previous");)"
                                 "\n" +
                                     solve);
    const fs::path impl = space.write("impl.h", "#define IMPL 1\n");
    const fs::path angled = space.write("angled.cpp", "#include <" + impl.string() + ">\n" + solve);
    for (const fs::path& source : {split, angled}) {
        INFO(source.filename());
        CHECK(scan_includes(source).complete);  // the scan does not see the read
        const compile_result result = space.host(source);
        INFO(result.diagnostics);
        CHECK_FALSE(result.ok);
        space.settings.sandbox = false;  // the sandbox is what stops it: without, it builds
        CHECK(space.host(source).ok);
        space.settings.sandbox = true;
    }
    // What the key holds is there: a quoted include beside the source, and one in a folder below.
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    CHECK(space.host(space.write("fair.cpp", kSolve)).ok);
}

TEST_CASE("a sandboxed compile names the source by the path it was given, a relative one too", "[compiler][sandbox]") {
    workspace space;
    space.write("sum.h", kSumHeader);
    space.write("detail/add.h", kAdd);
    const fs::path source = space.write("warns.cpp", std::string("#warning \"slow path\"\n") + kSolve);
    const compile_result absolute = space.host(source);
    REQUIRE(absolute.ok);
    CHECK(absolute.diagnostics.rfind(source.string() + ":1:2: warning: #warning \"slow path\"", 0) == 0);
    const working_directory here(space.sources.path());
    space.settings.cache_dir = space.cache.path() / "another";  // compiled again, not read from the cache
    const compile_result relative = space.host("warns.cpp");
    REQUIRE(relative.ok);
    CHECK_FALSE(relative.cached);
    CHECK(relative.diagnostics.rfind("warns.cpp:1:2: warning: #warning \"slow path\"", 0) == 0);
    CHECK(relative.compiled_from == "warns.cpp");
}

TEST_CASE("include scanning: quoted headers beside their includer, transitively, cycles once, system ones out",
          "[compiler]") {
    temp_dir dir("include-scan");
    const auto write = [&](const std::string& name, const std::string& text) {
        fs::create_directories((dir.path() / name).parent_path());
        std::ofstream(dir.path() / name) << text;
        return dir.path() / name;
    };
    write("a.h", "#pragma once\n  #  include \"sub/b.h\"\n#include <vector>\n");
    write("sub/b.h", "#pragma once\n#include \"../a.h\"\n#include_next <c.h>\n");
    const fs::path source = write("main.cu", "#include \"a.h\"\n#include \"missing.h\"\n");
    const include_scan scan = scan_includes(source);
    CHECK(scan.complete);
    REQUIRE(scan.headers.size() == 2);
    CHECK(scan.headers[0].filename() == "a.h");
    CHECK(scan.headers[1].filename() == "b.h");
    // A header that is not there yet is in the key as such: creating it changes the key.
    CHECK(std::count(scan.key_parts.begin(), scan.key_parts.end(), "missing.h (not beside its includer)") == 1);
    write("missing.h", "\n");
    CHECK(scan_includes(source).key_parts != scan.key_parts);
    CHECK_FALSE(scan_includes(write("computed.cu", "#define H \"a.h\"\n#include H\n")).complete);
}

// A grade keys a student's file by the headers it includes: an include the scan cannot read must make
// the key incomplete, or a classmate's library (same top file, another header) is reused.
TEST_CASE("include scanning: an include hidden from a line-by-line reading leaves the scan incomplete", "[compiler]") {
    temp_dir dir("include-scan");
    std::ofstream(dir.path() / "impl.h") << "#pragma once\n";
    const auto scan = [&](const std::string& text) {
        std::ofstream(dir.path() / "main.cu") << text;
        return scan_includes(dir.path() / "main.cu");
    };
    for (const std::string hidden :
         {"/* */ #include \"impl.h\"\n", "#/**/include \"impl.h\"\n", "%:include \"impl.h\"\n",
          "?\?=include \"impl.h\"\n", "#inc?\?/\nlude \"impl.h\"\n", "#if __has_include(\"impl.h\")\n#endif\n",
          "#import \"impl.h\"\n", "#include_next \"impl.h\"\n", "#embed \"impl.h\"\n",
          "asm(\".incbin \\\"impl.h\\\"\");\n", "asm(\".include \\\"impl.h\\\"\");\n",
          "/*\n// */ #include \"impl.h\"\n"}) {
        INFO(hidden);
        CHECK_FALSE(scan(hidden).complete);
    }
    // Read as the preprocessor reads lines: a BOM, and backslash-newlines (blanks before the newline too).
    for (const std::string spelled :
         {"\xEF\xBB\xBF#include \"impl.h\"\n", "#inc\\\nlude \"impl.h\"\n", "#include \\  \r\n  \"impl.h\"\n",
          "// a lone CR ends a line, as old Mac editors wrote them\r#include \"impl.h\"\n"}) {
        INFO(spelled);
        const include_scan found = scan(spelled);
        CHECK(found.complete);
        CHECK(found.headers.size() == 1);
    }
    // What reads no file keeps the scan complete (and the compile cache in use).
    for (const std::string plain : {"// include the header below\n#include \"impl.h\"\n",
                                    "int embedding_size = 3;  // ??\n", "#include_next <vector>\n"}) {
        INFO(plain);
        CHECK(scan(plain).complete);
    }
}

TEST_CASE("a source nvcc cannot be given is refused before it runs: shell syntax in its path, not a file, not text",
          "[compiler][nvcc]") {
    workspace space;
    const std::string correct = "extern \"C\" void solve(const float*, float* output, int) { output[0] = 0; }\n";
    // nvcc's steps run through sh with the path in double quotes: $(...) in a name was run.
    const fs::path marker = fs::current_path() / "ran_by_a_file_name";  // where nvcc's shell would run it
    fs::remove(marker);
    const fs::path named = space.write("x$(touch${IFS}ran_by_a_file_name).cu", correct);
    const compile_result shell = compile_solution(tiny_sum(), named, space.settings);
    CHECK_FALSE(shell.ok);
    CHECK(shell.source_refused);
    CHECK(shell.diagnostics == named.string() +
                                   ": the path holds \" $ ` or \\, which nvcc's shell steps would read as commands: "
                                   "rename the file or its folder\n");
    CHECK_FALSE(fs::exists(marker));
    // A FIFO would block the judge (no writer ever comes), a binary file take the compiler's whole limit.
    const fs::path fifo = space.sources.path() / "fifo.cu";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const compile_result piped = compile_solution(tiny_sum(), fifo, space.settings);
    CHECK(piped.diagnostics == fifo.string() + ": cannot read the file (missing, not a regular file, or over 1 GiB)\n");
    const fs::path binary = space.write("binary.cu", std::string("\x7f"
                                                                 "ELF\0\0\0",
                                                                 7) +
                                                         correct);
    const compile_result bytes = compile_solution(tiny_sum(), binary, space.settings);
    CHECK(bytes.diagnostics == binary.string() + ": not a source file: it holds NUL bytes\n");
    CHECK(compile_solution(tiny_sum(), space.write("quote's.cu", correct), space.settings).ok);  // ' is quoted
}

TEST_CASE("a UTF-16 source, as Windows editors save one, is refused with what to do", "[compiler]") {
    workspace space;
    // "int x;\n" in UTF-16, little- and big-endian, each after its byte-order mark.
    const std::string little("\xff\xfei\0n\0t\0 \0x\0;\0\n\0", 16);
    const std::string big("\xfe\xff\0i\0n\0t\0 \0x\0;\0\n", 16);
    for (const auto& [name, text] :
         {std::pair{"little.cu", little}, std::pair{"big.cpp", big}, std::pair{"little.py", little}}) {
        INFO(name);
        const fs::path source = space.write(name, text);
        const compile_result result = compile_solution(tiny_sum(), source, space.settings);
        CHECK_FALSE(result.ok);
        CHECK(result.source_refused);
        CHECK(result.diagnostics == source.string() + ": the file is UTF-16: save it as UTF-8\n");
    }
    CHECK(space.host(space.write("big.cpp", big)).diagnostics ==
          (space.sources.path() / "big.cpp").string() + ": the file is UTF-16: save it as UTF-8\n");
}

TEST_CASE("a Python file Python would not read is refused with its name and line, not the judge's copy's",
          "[compiler]") {
    workspace space;
    const std::string body = "def solve(input, output, N):\n    output[0] = input[:N].sum()\n";
    // Python said: "invalid or missing encoding declaration for '/judge/lib/<hash>.py'", and no line.
    const fs::path latin = space.write("latin.py", "import torch\n# caf\xe9\n" + body);
    const compile_result refused = compile_solution(tiny_sum(), latin, space.settings);
    CHECK(refused.source_refused);
    CHECK(refused.diagnostics == latin.string() +
                                     ":2: the file is not UTF-8 (byte 0xe9): save it as UTF-8, or declare its "
                                     "encoding on its first line (# -*- coding: latin-1 -*-)\n");
    const fs::path nul = space.write("nul.py", std::string("# \0\n", 4) + body);
    CHECK(compile_solution(tiny_sum(), nul, space.settings).diagnostics ==
          nul.string() + ": not a source file: it holds NUL bytes\n");
    // Declared UTF-8, the bytes must be UTF-8 (a surrogate is not).
    CHECK(compile_solution(tiny_sum(), space.write("says_utf8.py", "# -*- coding: utf-8 -*-\n# caf\xe9\n" + body),
                           space.settings)
              .source_refused);
    CHECK(compile_solution(tiny_sum(), space.write("surrogate.py", "# \xed\xa0\x80\n" + body), space.settings)
              .source_refused);
    // Declared (PEP 263), or UTF-8: Python's to read.
    CHECK(compile_solution(tiny_sum(), space.write("declared.py", "# -*- coding: latin-1 -*-\n# caf\xe9\n" + body),
                           space.settings)
              .ok);
    CHECK(
        compile_solution(tiny_sum(), space.write("utf8.py", "# caf\xc3\xa9 \xe2\x9c\x93\n" + body), space.settings).ok);
}

TEST_CASE("read_file_text reads regular files alone: a FIFO and a device give nothing, at once", "[compiler]") {
    const temp_dir work("file-text");
    const fs::path fifo = work.path() / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_FALSE(read_file_text(fifo));
    CHECK_FALSE(read_file_text("/dev/zero"));
    CHECK_FALSE(read_file_text(work.path() / "missing"));
    std::ofstream(work.path() / "text") << "some text";
    CHECK(read_file_text(work.path() / "text") == "some text");
}

TEST_CASE("compiles at once: one per core, no more than memory holds at each one's memory limit", "[compiler]") {
    compile_limits limits;
    limits.memory_mib = 1u << 29;  // 512 TiB each: one at a time
    CHECK(compiles_at_once(limits) == 1);
    limits.memory_mib = 1;  // memory is no bound: the cores are
    CHECK(compiles_at_once(limits) == std::max(1u, std::thread::hardware_concurrency()));
}

TEST_CASE("the compiler is shown the bytes the key and the hash were made of, whatever the file becomes meanwhile",
          "[compiler][sandbox]") {
    // A stand-in compiler that waits, then writes what it reads of the source and its header as the
    // "library". A student swapping his hand-in during a grade was judged on bytes his row did not name,
    // and the cache kept that library under the other bytes' key.
    workspace space;
    const fs::path tool = space.write("tools/bin/c++",
                                      "#!/bin/sh\n"
                                      "[ \"$1\" = --version ] && { echo stand-in; exit 0; }\n"
                                      "for arg; do [ \"$previous\" = -o ] && out=$arg; previous=$arg; done\n"
                                      "sleep 2\n"
                                      "cat \"$arg\" \"$(dirname \"$arg\")/sum.h\" > \"$out\"\n");
    fs::permissions(tool, fs::perms::owner_all);
    space.settings.host_compiler = tool.string();
    space.settings.hash_submission = true;  // as a grade compiles
    const std::string first_source = "// first\n" + std::string(kSolve), first_header = "// first\n";
    const fs::path header = space.write("sum.h", first_header);
    const fs::path source = space.write("solution.cpp", first_source);
    auto compiling = std::async(std::launch::async, [&] { return space.host(source); });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    space.write("solution.cpp", "// second\n" + std::string(kSolve));
    space.write("sum.h", "// second\n");
    const compile_result built = compiling.get();
    INFO(built.diagnostics);
    REQUIRE(built.ok);
    const std::string seen = read_file_text(built.library).value_or("");
    // The submission hash of what was compiled, source and header: a grade compares it with its scan's.
    const auto hash_of = [&](const std::string& source_text, const std::string& header_text) {
        workspace other;
        other.write("sum.h", header_text);
        const fs::path copy = other.write("solution.cpp", source_text);
        return submission_hash(copy, source_text, scan_includes(copy, source_text));
    };
    if (built.source_hash == content_hash({first_source})) {  // hashed before the rewrite, as it should have been
        CHECK(seen == first_source + first_header);
        CHECK(built.submission_hash == hash_of(first_source, first_header));
    } else {  // the machine was slow enough that the compile began after it: all of it the second bytes
        CHECK(seen == "// second\n" + std::string(kSolve) + "// second\n");
        CHECK(built.submission_hash == hash_of("// second\n" + std::string(kSolve), "// second\n"));
    }
    CHECK(built.submission_hash != content_hash({first_source}));  // the header is part of it
}

TEST_CASE("a header the compile cannot take is refused: NUL bytes, too large, too many bytes together", "[compiler]") {
    // A header holding another's bytes, NUL and a name between them, took the key of two headers (content_hash
    // separates its parts with NUL): a file that did not compile got another's library. A sparse header of a GiB
    // costs nothing on disk and held a GiB of the judge's memory per read.
    workspace space;
    space.write("sum.h", std::string("inline float sum(const float*, int) { return 0; }\n") + '\0' + "tune.h" + '\0');
    const fs::path source = space.write("solution.cpp", kSolve);
    const compile_result nul = space.host(source);
    CHECK_FALSE(nul.ok);
    CHECK(nul.diagnostics == (space.sources.path() / "sum.h").string() + ": not a header: it holds NUL bytes\n");

    fs::resize_file(space.write("sum.h", ""), kMaxHeaderBytes + 1);  // sparse: nothing on disk
    const compile_result large = space.host(source);
    CHECK_FALSE(large.ok);
    CHECK(large.diagnostics == (space.sources.path() / "sum.h").string() + ": a header larger than 4 MiB\n");
    // /proc's files state a size of 0, and a pagemap holds 8 bytes for each page of the address space:
    // outside the source's folder, the scan never opens it (nor the compile, which is not shown it).
    space.write("sum.h", "inline float sum(const float*, int) { return 0; }\n");
    const compile_result proc =
        space.host(space.write("proc.cpp", "#if 0\n#include \"/proc/self/pagemap\"\n#endif\n" + std::string(kSolve)));
    CHECK(proc.ok);
    CHECK(proc.diagnostics.empty());

    std::string includes;
    for (int i = 0; i < 5; ++i) {
        space.write(fmt::format("part{}.h", i), std::string(kMaxHeaderBytes - 1, ' '));
        includes += fmt::format("#if 0\n#include \"part{}.h\"\n#endif\n", i);
    }
    const compile_result many = space.host(
        space.write("many.cpp", includes + "extern \"C\" void solve(const float*, float* o, int) { o[0] = 0; }\n"));
    CHECK_FALSE(many.ok);
    CHECK(many.diagnostics ==
          (space.sources.path() / "part4.h").string() + ": the headers included hold more than 16 MiB together\n");
}

TEST_CASE(
    "a header outside the source's folder is never read by the judge: its refusals told which private files exist",
    "[compiler]") {
    // A red team's source learnt that the history existed and was binary ("not a header: it holds NUL bytes"),
    // where the sandboxed compiler, which is not shown it, only says "No such file".
    workspace space;
    temp_dir other("private");
    std::ofstream(other.path() / "history.db") << std::string("SQLite format 3") + '\0' + "rows";
    const fs::path sibling = space.sources.path() / ".." / space.sources.path().filename().concat("-classmate");
    fs::create_directories(sibling);
    std::ofstream(sibling / "tiny_sum.cpp") << std::string("x") + '\0';
    const std::string includes = "#if 0\n#include \"" + (other.path() / "history.db").string() + "\"\n#include \"../" +
                                 sibling.filename().string() + "/tiny_sum.cpp\"\n#endif\n";
    space.write("sum.h", "inline float sum(const float*, int) { return 0; }\n");
    const fs::path source = space.write("solution.cpp", includes + kSolve);
    const compile_result result = space.host(source);
    INFO(result.diagnostics);
    CHECK(result.ok);
    CHECK(result.diagnostics.empty());
    const include_scan scan = scan_includes(source);
    CHECK(scan.headers == std::vector<fs::path>{space.sources.path() / "sum.h"});
    CHECK(scan.key_parts.at(0) == (other.path() / "history.db").string() + " (outside the source's folder)");
    fs::remove_all(sibling);
}

TEST_CASE("a header reached again through another name is a part of the key: a link is not invisible to it",
          "[compiler]") {
    workspace space;
    space.write("impl.h", "inline float sum(const float* x, int) { return x[0]; }\n");
    const fs::path source =
        space.write("solution.cpp",
                    "#include \"impl.h\"\n#include \"tune.h\"\nextern \"C\" void solve(const float* i, float* "
                    "o, int n) { o[0] = sum(i, n); }\n");
    fs::create_symlink("impl.h", space.sources.path() / "tune.h");
    const include_scan linked = scan_includes(source);
    REQUIRE(linked.key_parts.size() == 3);
    CHECK(linked.key_parts[2] == "tune.h (read before as impl.h)");
    // A header included twice by its one name adds nothing: the keys of earlier versions stand.
    const fs::path twice = space.write("twice.cpp", "#include \"impl.h\"\n#include \"impl.h\"\n");
    CHECK(scan_includes(twice).key_parts.size() == 2);
}

TEST_CASE("a compiler wrapper in ~/bin shows the compile its bin folder, never the home around it",
          "[compiler][sandbox]") {
    // bin/.. of a wrapper in ~/bin is the home: bound whole, it showed the compile every file of the
    // grader's (classmates' hand-ins, a staff secret quoted back in a compile error).
    workspace space;
    const fs::path home = space.sources.path() / "home";
    const fs::path wrapper = space.write("home/bin/c++", "#!/bin/sh\nexec c++ \"$@\"\n");
    fs::permissions(wrapper, fs::perms::owner_all);
    space.write("home/secret.h", "#define SECRET 42\n");
    const fs::path source =
        space.write("elsewhere/reads_home.cpp",
                    "#include \"" + (home / "secret.h").string() +
                        "\"\nextern \"C\" void solve(const float*, float* o, int) { o[0] = SECRET; }\n");
    space.settings.host_compiler = wrapper.string();
    const char* before = std::getenv("HOME");
    const std::string kept = before ? before : "";
    setenv("HOME", home.c_str(), 1);
    const compile_result built = space.host(source);
    const compile_result plain = space.host(
        space.write("elsewhere/plain.cpp", "extern \"C\" void solve(const float*, float* o, int) { o[0] = 1; }\n"));
    if (before)
        setenv("HOME", kept.c_str(), 1);
    else
        unsetenv("HOME");
    INFO(built.diagnostics);
    CHECK_FALSE(built.ok);
    CHECK(contains(built.diagnostics, "secret.h: No such file or directory"));
    CHECK(plain.ok);  // the wrapper itself is there
}

TEST_CASE("a diagnostic line of 200 000 characters is cut for the report, not a regex's overflow of the judge's stack",
          "[compiler]") {
    // A red team's #error line of 50 000 characters that the temporary-object pattern reads crashed the
    // judge (exit 139) in libstdc++'s recursive regex, and a grade and the page's server with it.
    workspace space;
    const fs::path source =
        space.write("solution.cpp", "#error /tmp/tmpxft_" + std::string(200000, 'a') + "\n" + std::string(kSolve));
    const compile_result result = space.host(source);
    CHECK_FALSE(result.ok);
    CHECK(result.diagnostics.find(" more characters]") != std::string::npos);
    CHECK(result.diagnostics.size() < 3 * kRegexLineLimit * 4);
    CHECK(compile_error_reason(result.diagnostics).find("#error") != std::string::npos);
}
