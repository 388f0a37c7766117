#include "compiler.hpp"

#include "content_hash.hpp"
#include "subprocess.hpp"
#include "temp_dir.hpp"
#include "user_errors.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

constexpr std::size_t kMaxDiagnosticLines = 30;

std::string read_file(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error(fmt::format("{}: cannot read the file", path.string()));
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// "nvcc --version" and the like, asked once per tool: part of every cache key.
std::string tool_version(const std::string& tool) {
    static std::mutex mutex;
    static std::map<std::string, std::string> versions;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = versions.find(tool);
    if (it != versions.end()) return it->second;
    command_result result;
    try {
        result = run_command({tool, "--version"}, std::chrono::seconds(60));
    } catch (const std::runtime_error&) {  // it could not be started: not on PATH
        throw environment_error(missing_tool_message(tool));
    }
    if (result.exit.code != 0 || result.exit.signaled)
        throw environment_error(
            fmt::format("'{} --version' failed ({}): is it installed properly?", tool, result.exit.describe()));
    return versions[tool] = result.output;
}

// Keeps what helps the learner: the diagnostics with their file:line, without tool noise and with
// the generated header named for what it is.
std::string trim_diagnostics(const std::string& output, const std::string& header_path) {
    std::istringstream lines(output);
    std::string line, text;
    std::size_t kept = 0;
    const std::regex temp_object(R"(/tmp/tmpxft_[0-9a-f_]+-\d+_)");
    while (std::getline(lines, line)) {
        if (line.find("detected in the compilation of") != std::string::npos) continue;
        if (line.find("collect2: error: ld returned") != std::string::npos) continue;
        for (std::size_t at; (at = line.find(header_path)) != std::string::npos;)
            line.replace(at, header_path.size(), "<expected signature>");
        line = std::regex_replace(line, temp_object, "");
        if (line.empty()) continue;
        if (++kept > kMaxDiagnosticLines) {
            text += "...\n";
            break;
        }
        text += line + "\n";
    }
    return text;
}

std::string explain_failure(const problem_spec& spec, const std::string& function, const std::string& diagnostics) {
    std::string text = diagnostics;
    if (diagnostics.find("undefined reference to `" + function + "'") != std::string::npos)
        text += fmt::format("{} is not defined. Define it exactly as:\n", function);
    else
        text += "The expected signature is:\n";
    return text + "  " + spec.prototype(function) + "\n";
}

compile_result compile_cached(const problem_spec& spec, const std::filesystem::path& source,
                              const std::string& function, const std::string& tool, std::vector<std::string> flags,
                              const compiler_settings& settings) {
    const auto start = std::chrono::steady_clock::now();
    compile_result result;
    const std::string header = forced_header(spec, function);
    const std::string key = content_hash({tool_version(tool), fmt::format("{}", fmt::join(flags, " ")), header,
                                          read_file(source)});
    const auto library_dir = settings.cache_dir / "lib";
    std::filesystem::create_directories(library_dir);
    result.library = library_dir / (key + ".so");
    if (std::filesystem::exists(result.library)) {
        result.ok = result.cached = true;
        return result;
    }
    temp_dir work("compile");
    const auto header_path = work.path() / "gpujudge_expected.h";
    std::ofstream(header_path) << header;
    // Built under a private name and renamed: concurrent judges never load half a library.
    const auto partial = library_dir / fmt::format("{}.{}.partial", key, getpid());
    std::vector<std::string> argv{tool};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-include", header_path.string(), "-o", partial.string(), source.string()});
    const command_result run = run_command(argv, std::chrono::seconds(300));
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run.exit.timed_out || run.exit.signaled || run.exit.code != 0) {
        std::filesystem::remove(partial);
        result.diagnostics = run.exit.timed_out ? "the compiler did not finish within 300 s\n"
                                                : explain_failure(spec, function, trim_diagnostics(run.output, header_path.string()));
        return result;
    }
    std::filesystem::rename(partial, result.library);
    result.ok = true;
    result.diagnostics = trim_diagnostics(run.output, header_path.string());  // warnings
    return result;
}

}  // namespace

std::filesystem::path default_cache_dir() {
    if (const char* dir = std::getenv("GPUJUDGE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir) return std::filesystem::path(dir) / "gpujudge";
    if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "gpujudge";
    return std::filesystem::temp_directory_path() / "gpujudge-cache";
}

std::string forced_header(const problem_spec& spec, const std::string& function) {
    std::string types;
    for (const auto& param : spec.params) types += (types.empty() ? "" : ", ") + param.c_type();
    return fmt::format(
        "// Generated by gpujudge from problem '{}': the signature every submission must define.\n"
        "{};\n"
        "static void (*const gpujudge_expected_{})({}) __attribute__((used)) = {};\n",
        spec.slug, spec.prototype(function), function, types, function);
}

compile_result compile_solution(const problem_spec& spec, const std::filesystem::path& source,
                                const compiler_settings& settings) {
    return compile_cached(spec, source, "solve", settings.nvcc,
                          {"-O3", "-lineinfo", "-Xcompiler", "-fPIC", "-shared", "-arch=" + settings.arch, "-Xlinker",
                           "-z", "-Xlinker", "defs"},
                          settings);
}

compile_result compile_host(const problem_spec& spec, const std::filesystem::path& source, const std::string& function,
                            const compiler_settings& settings) {
    return compile_cached(spec, source, function, settings.host_compiler,
                          {"-O2", "-std=c++17", "-fPIC", "-shared", "-x", "c++", "-Wl,-z,defs"}, settings);
}

}  // namespace gpujudge
