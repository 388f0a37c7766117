#include "compile/compiler.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/machine_memory.hpp"
#include "base/printable_text.hpp"
#include "base/regex_line.hpp"
#include "base/temp_dir.hpp"
#include "base/user_errors.hpp"
#include "compile/include_scan.hpp"
#include "process/child_process.hpp"
#include "process/sandbox.hpp"
#include "toolkit/programs.hpp"
#include "toolkit/python_probe.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace gpujudge {

// nvcc runs its steps through sh with the path in double quotes, where " $ ` and \ would be read as
// shell syntax (a file named x$(cmd).cu ran cmd).
std::optional<std::string> unusable_path(const std::filesystem::path& source) {
    if (source.string().find_first_of("\"$`\\") == std::string::npos) return std::nullopt;
    return fmt::format(
        "{}: the path holds \" $ ` or \\, which nvcc's shell steps would read as commands: "
        "rename the file or its folder",
        source.string());
}

namespace {

constexpr std::size_t kMaxDiagnosticLines = 30;
// The sandbox's /tmp holds this many files of the largest size: nvcc keeps its intermediates there
// at once (preprocessed source, PTX, cubin, fatbin, object), so that the file-size limit, which
// names itself, is met before the scratch is full.
constexpr unsigned kScratchFiles = 4;

std::string cannot_read(const std::filesystem::path& path) {
    return fmt::format("{}: {}", path.string(), kUnreadableFile);
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
    } catch (const std::runtime_error&) {  // it could not be started: not on PATH (nvcc was found before)
        throw environment_error(fmt::format(
            "{} not found on PATH: gpujudge compiles references with it; install a C++ compiler (on Debian: "
            "apt-get install g++)",
            tool));
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
        if (line.size() > kRegexLineLimit)
            line = regex_line(line) + fmt::format(" [{} more characters]", line.size() - kRegexLineLimit);
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

std::string explain_failure(const problem_spec& spec, const std::string& function, const std::string& diagnostics,
                            bool undefined_function) {
    std::string text = diagnostics;
    if (undefined_function)
        text += fmt::format("{} is not defined. Define it exactly as:\n", function);
    else
        text += "The expected signature is:\n";
    return text + "  " + spec.prototype(function) + "\n";
}

// The file-size limit gpujudge itself runs under, where it is below the compiler's: the compiler gets
// the lower one (a limit is only lowered), and a correct source failed for it, "1024 MiB" named.
std::optional<rlim_t> lower_inherited_file_limit(const compile_limits& limits) {
    rlimit own{};
    if (getrlimit(RLIMIT_FSIZE, &own) != 0 || own.rlim_cur == RLIM_INFINITY) return std::nullopt;
    if (own.rlim_cur >= rlim_t{limits.file_mib} << 20) return std::nullopt;
    return own.rlim_cur;
}

// Why the compiler stopped, when it was a limit: its signal, or the words its driver prints for a
// child's (g++: "... File size limit exceeded signal terminated program as"; nvcc names the signal).
// Throws environment_error where the limit was the machine's, not the judge's.
std::optional<std::string> exceeded_limit(const command_result& run, const compile_limits& limits) {
    const auto said = [&](std::initializer_list<const char*> words) {
        for (const char* word : words)
            if (run.output.find(word) != std::string::npos) return true;
        return false;
    };
    if (run.exit.flooded)
        return fmt::format("the compiler printed more than {} MiB of diagnostics and was stopped", limits.output_mib);
    if (run.exit.timed_out) return fmt::format("the compiler did not finish within {} s", limits.wall_seconds);
    if ((run.exit.signaled && run.exit.signal == SIGXFSZ) ||
        said({"File size limit exceeded", "signal 25", "file size limit"})) {
        const auto own = lower_inherited_file_limit(limits);
        const std::string message =
            own ? fmt::format(
                      "the compiler exceeded the file-size limit of {} KiB that gpujudge runs under (ulimit "
                      "-f), below its own of {} MiB: raise it (ulimit -f unlimited)",
                      *own >> 10, limits.file_mib)
                : fmt::format("the compiler exceeded the file-size limit of {} MiB (RLIMIT_FSIZE)", limits.file_mib);
        // The machine's fault (exit 13, which stops a grade) only when the compiler itself was killed for
        // it: the words a source's #error can print, and a compile bomb meets the lower limit too.
        if (own && run.exit.signaled && run.exit.signal == SIGXFSZ) throw environment_error(message);
        return message;
    }
    if ((run.exit.signaled && (run.exit.signal == SIGXCPU || run.exit.signal == SIGKILL)) ||
        said({"CPU time limit exceeded", "signal 24"}))
        return fmt::format("the compiler exceeded the CPU-time limit of {} s (RLIMIT_CPU)", limits.cpu_seconds);
    if (said({"out of memory", "memory exhausted", "std::bad_alloc", "Cannot allocate memory"}))
        return fmt::format("the compiler exceeded the memory limit of {} MiB (RLIMIT_AS)", limits.memory_mib);
    if (said({"No space left on device"}))
        return fmt::format("the compiler ran out of room for its files (its /tmp holds {} MiB in the sandbox)",
                           kScratchFiles * limits.file_mib);
    return std::nullopt;
}

// The toolchain's versions, part of every key: system and CUDA headers change only with them.
std::string toolchain_version(const std::vector<std::string>& tools) {
    std::string text;
    for (const auto& tool : tools) text += tool_version(tool);
    return text;
}

// Replaces `path` where it starts a word (a line, or after a blank or a quote), so that "a.cu"
// does not match inside "data.cu".
std::string replace_path(std::string text, const std::string& path, const std::string& by) {
    if (path.empty()) return text;
    for (std::size_t at = 0; (at = text.find(path, at)) != std::string::npos;) {
        const bool starts_word = at == 0 || std::string(" \t\n'\"`").find(text[at - 1]) != std::string::npos;
        if (!starts_word) {
            at += path.size();
            continue;
        }
        text.replace(at, path.size(), by);
        at += by.size();
    }
    return text;
}

// Cached diagnostics name the source by a mark, replaced by the path of the submit that reads them:
// the key is free of the path, so one entry serves the same file reached by another path.
constexpr const char* kSourceMark = "\x01source\x01";

struct cache_entry {
    std::string source_text;  // the bytes the key holds, which the compiler is shown
    // What the key holds of the source's folder, all the compiler may read of it; incomplete (a header
    // named by a macro): the key is unique, and the entry is never reused.
    include_scan includes;
    std::filesystem::path library;
    std::filesystem::path log;     // the compiler's warnings, shown again on every cache hit
    std::filesystem::path origin;  // the path compiled (compile_result::compiled_from)
};

cache_entry cache_entry_for(const std::filesystem::path& source, const std::string& text, const std::string& header,
                            const std::vector<std::string>& tools, const std::vector<std::string>& flags,
                            const std::string& suffix, const compiler_settings& settings) {
    const include_scan includes = scan_includes(source, text);
    std::vector<std::string> parts{toolchain_version(tools), fmt::format("{}", fmt::join(flags, " ")), header, text};
    parts.insert(parts.end(), includes.key_parts.begin(), includes.key_parts.end());
    std::string key = content_hash(parts);
    if (!includes.complete) {
        // A header named through a macro cannot be keyed: a name of its own, never found again.
        std::random_device random;
        key += fmt::format("-{:08x}{:08x}", random(), random());
    }
    const auto dir = settings.cache_dir / "lib";
    std::filesystem::create_directories(dir);
    return {text, includes, dir / (key + suffix), dir / (key + ".log"), dir / (key + ".source")};
}

std::string read_diagnostics(const cache_entry& entry, const std::filesystem::path& source) {
    return replace_path(read_file_text(entry.log).value_or(""), kSourceMark, source.string());
}

void write_diagnostics(const cache_entry& entry, const std::filesystem::path& source, const std::string& text) {
    write_file_atomically(entry.log, replace_path(text, source.string(), kSourceMark));
}

std::filesystem::path read_origin(const cache_entry& entry) {
    std::ifstream file(entry.origin, std::ios::binary);
    std::string path;
    std::getline(file, path);
    return path;
}

// The path made absolute, without "." or ".." and without a trailing slash.
std::filesystem::path plain_path(const std::filesystem::path& path) {
    const auto normal = std::filesystem::absolute(path).lexically_normal();
    return normal.has_filename() || normal == normal.root_path() ? normal : normal.parent_path();
}

void add_read_only(sandbox_policy& policy, const std::filesystem::path& path) {
    for (const auto& bind : policy.read_only)
        if (bind.source == path) return;
    policy.read_only.push_back({path, {}});
}

// What the compiler may read of the learner's files, read-only at their own paths (diagnostics and
// line info name the real ones): the source (and where a link to it resolves), and of its folder
// only the local headers the scan found, which the cache key holds. Each is a copy of the bytes the
// key was made of, written into the work folder: a file rewritten between the hash and the compile (a
// student swapping his hand-in, or a link to a classmate's, while a grade runs) does not reach the
// compiler. A file read another way (a lone CR hiding an #include from the scan, `.incbin` spelt
// across string literals, `<abs/x.h>`) is not there to be read, so no library is built from bytes its
// key lacks, and in grade no classmate's library is reused. Where the scan is incomplete (a macro
// names a header) the key is unique and the folder is bound whole. Never a folder that holds other
// people's files and the judge's (the root, a temporary root) or lies in the judge's own (the cache),
// nor a header that a link takes out of it.
void bind_source(sandbox_policy& policy, const std::filesystem::path& source, const cache_entry& entry,
                 const std::filesystem::path& work, const std::vector<std::filesystem::path>& judge_folders) {
    const std::vector<std::filesystem::path> shared{"/", "/tmp", plain_path(std::filesystem::temp_directory_path())};
    const auto open_folder = [&](const std::filesystem::path& folder) {
        return std::find(shared.begin(), shared.end(), folder) == shared.end() &&
               std::none_of(judge_folders.begin(), judge_folders.end(),
                            [&](const std::filesystem::path& hidden) { return lies_in(folder, hidden); });
    };
    const auto copies = work / "sources";
    std::filesystem::create_directories(copies);
    const auto bind_copy = [&](const std::string& name, const std::string& text, const std::filesystem::path& at) {
        write_file_atomically(copies / name, text);
        policy.read_only.push_back({copies / name, at});
    };
    const include_scan& includes = entry.includes;
    const auto named = plain_path(source);
    const auto real = std::filesystem::weakly_canonical(named);
    bind_copy("source", entry.source_text, real);
    if (named != real) policy.read_only.push_back({copies / "source", named});
    for (const auto& file : {real, named})
        if (!includes.complete && open_folder(file.parent_path())) add_read_only(policy, file.parent_path());
    if (!includes.complete || !open_folder(named.parent_path())) return;
    const auto real_folder = std::filesystem::weakly_canonical(named.parent_path());
    for (std::size_t i = 0; i < includes.headers.size(); ++i) {
        const auto path = plain_path(includes.headers[i]);
        const auto resolved = std::filesystem::weakly_canonical(path);
        if (lies_in(path, named.parent_path()) && lies_in(resolved, real_folder) && open_folder(path.parent_path()) &&
            open_folder(resolved.parent_path()))
            bind_copy(fmt::format("header-{}", i), includes.texts[i], path);
    }
}

// Whether a folder holds the user's own files (their home, the working directory): no installation
// to show a compiler, whatever a wrapper in ~/bin makes of bin/.. .
bool holds_users_files(const std::filesystem::path& folder) {
    std::error_code error;
    std::vector<std::filesystem::path> own{std::filesystem::current_path(error)};
    if (const char* home = std::getenv("HOME"); home && *home) own.emplace_back(home);
    return std::any_of(own.begin(), own.end(), [&](const std::filesystem::path& path) {
        const auto mine = std::filesystem::weakly_canonical(path, error);
        return !error && (mine == folder || lies_in(mine, folder));
    });
}

// Each tool's installation (bin/..: a toolkit outside the system folders), resolved, unless it is the
// root or holds the user's files: then its bin folder, or the program alone. nvcc finds the host
// compiler on PATH, which the sandbox keeps.
void bind_tools(sandbox_policy& policy, const std::vector<std::string>& tools) {
    for (const auto& tool : tools) {
        std::filesystem::path program = tool;
        if (program.parent_path().empty()) program = find_program(tool).value_or(program);
        const auto resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(program));
        for (const auto& shown : {resolved.parent_path().parent_path(), resolved.parent_path(), resolved}) {
            if (!shown.has_relative_path() || holds_users_files(shown)) continue;
            if (std::filesystem::exists(shown)) add_read_only(policy, shown);
            break;
        }
    }
}

// The compile's sandbox: the source's folder and the tools read-only, the work folder writable (the
// forced header, the library), the judge's own folders hidden wherever a bind would show them, and
// the judge's working directory, so that a relative source path reads as it does outside.
sandbox_policy compile_policy(const std::filesystem::path& source, const cache_entry& entry,
                              const std::filesystem::path& work, const std::vector<std::string>& tools,
                              const compiler_settings& settings) {
    sandbox_policy policy;
    policy.scratch_bytes = std::uintmax_t{kScratchFiles} * settings.limits.file_mib << 20;
    for (const auto& folder : settings.hidden) policy.hidden.push_back(plain_path(folder));
    policy.hidden.push_back(plain_path(settings.cache_dir));
    const std::vector<std::filesystem::path> judge_folders = policy.hidden;       // the data dir, the cache
    policy.hidden.push_back(plain_path(std::filesystem::temp_directory_path()));  // secret expected outputs
    for (const auto& folder : settings.others) policy.hidden.push_back(plain_path(folder));
    bind_source(policy, source, entry, work, judge_folders);
    bind_tools(policy, tools);
    policy.writable.push_back({work, {}});
    policy.workdir = std::filesystem::current_path();
    policy.keep_env = {"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES"};  // the diagnostics' language
    return policy;
}

spawn_options compile_options(const std::filesystem::path& source, const cache_entry& entry,
                              const std::filesystem::path& work, const std::vector<std::string>& tools,
                              const compiler_settings& settings) {
    spawn_options options;
    options.limits.cpu_seconds = settings.limits.cpu_seconds;
    options.limits.file_bytes = rlim_t{settings.limits.file_mib} << 20;  // under the scratch's: it stays
    options.limits.address_bytes = rlim_t{settings.limits.memory_mib} << 20;
    options.limits.no_core = true;
    options.output_limit_bytes = std::uintmax_t{settings.limits.output_mib} << 20;
    if (settings.sandbox) {
        require_sandbox();
        options.sandbox = compile_policy(source, entry, work, tools, settings);
    }
    return options;
}

// A file that starts with UTF-16's byte-order mark (FF FE or FE FF: Windows editors save "Unicode" so):
// every other byte of its ASCII is NUL, which no compiler or Python reads.
std::optional<std::string> utf16_source(const std::filesystem::path& source, const std::string& text) {
    if (text.rfind("\xff\xfe", 0) != 0 && text.rfind("\xfe\xff", 0) != 0) return std::nullopt;
    return fmt::format("{}: the file is UTF-16: save it as UTF-8", source.string());
}

// Why the bytes of `source` cannot be given to the compiler, if they cannot: the compiler would spend
// its whole limit on a binary file.
std::optional<std::string> unusable_text(const std::filesystem::path& source, const std::optional<std::string>& text) {
    if (!text) return cannot_read(source);
    if (const auto utf16 = utf16_source(source, *text)) return utf16;
    if (text->find('\0') != std::string::npos)
        return fmt::format("{}: not a source file: it holds NUL bytes", source.string());
    return std::nullopt;
}

// The source as the compiler's operand: a relative path that starts with '-' would be read as an option
// (-dash.cpp compiled nothing and linked).
std::string operand(const std::filesystem::path& source) {
    const std::string path = source.string();
    return path.rfind('-', 0) == 0 ? "./" + path : path;
}

// Why the compiler's output is not kept: larger than the limit (static data belongs on the GPU).
std::optional<std::string> oversized(const std::filesystem::path& built, const compile_limits& limits) {
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(built, error);
    if (error || bytes <= (std::uintmax_t{limits.library_mib} << 20)) return std::nullopt;
    return fmt::format(
        "the compiler built {} MiB, more than the {} MiB a submission's library may take: kernels' code takes a few "
        "MiB; large static data (an initialised array) belongs in device memory, made at run time",
        bytes >> 20, limits.library_mib);
}

// Builds `source` with `tools.front()` and `flags` into one output file, kept in the cache under the
// key with `suffix` (".so": a library; ".ptx", ".cubin": device code for `asm`).
compile_result compile_cached(const problem_spec& spec, const std::filesystem::path& source,
                              const std::string& function, const std::vector<std::string>& tools,
                              const std::vector<std::string>& flags, const compiler_settings& settings,
                              const std::string& suffix = ".so") {
    const auto start = std::chrono::steady_clock::now();
    compile_result result;
    const auto text = read_file_text(source);  // once: the key, the hash and the compiler's copy
    const auto path_refused = unusable_path(source);
    if (text) result.source_hash = content_hash({*text});  // refused or not: which bytes were read
    if (const auto refused = path_refused ? path_refused : unusable_text(source, text)) {
        result.diagnostics = *refused + "\n";
        result.source_refused = true;
        result.path_refused = path_refused.has_value();
        return result;
    }
    const std::string header = forced_header(spec, function);
    const cache_entry entry = cache_entry_for(source, *text, header, tools, flags, suffix, settings);
    if (settings.hash_submission) result.submission_hash = submission_hash(source, *text, entry.includes);
    if (!entry.includes.refused.empty()) {
        result.diagnostics = entry.includes.refused + "\n";
        return result;
    }
    result.library = entry.library;
    if (entry.includes.complete && std::filesystem::exists(entry.library)) {
        result.ok = result.cached = true;
        result.diagnostics = read_diagnostics(entry, source);
        result.compiled_from = read_origin(entry);
        return result;
    }
    temp_dir work("compile");
    const auto header_path = work.path() / "gpujudge_expected.h";
    std::ofstream(header_path) << header;
    const auto built = work.path() / ("library" + suffix);  // the compiler writes nothing into the cache
    std::vector<std::string> argv{tools.front()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-include", header_path.string(), "-o", built.string(), operand(source)});
    const spawn_options options = compile_options(source, entry, work.path(), tools, settings);
    const command_result run = run_command(argv, std::chrono::seconds(settings.limits.wall_seconds), options);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run.exit.timed_out || run.exit.flooded || run.exit.signaled || run.exit.code != 0) {
        result.undefined_function = run.output.find("undefined reference to `" + function + "'") != std::string::npos;
        const std::string diagnostics = trim_diagnostics(run.output, header_path.string());
        if (const auto limit = exceeded_limit(run, settings.limits))
            result.diagnostics = *limit + "\n" + (run.exit.timed_out ? "" : diagnostics);
        else
            result.diagnostics = explain_failure(spec, function, diagnostics, result.undefined_function);
        return result;
    }
    result.diagnostics = trim_diagnostics(run.output, header_path.string());  // warnings
    result.compiled_from = source;
    if (entry.includes.complete) {  // first: a hit finds all three
        write_diagnostics(entry, source, result.diagnostics);
        write_file_atomically(entry.origin, source.string() + "\n");
    }
    if (const auto refused = oversized(built, settings.limits)) {
        result.diagnostics = *refused + "\n";
        return result;
    }
    if (const auto refused = take_from_sandbox(built, entry.library)) {
        result.diagnostics =
            fmt::format("the compiler's output {} cannot be taken: {}\n", built.filename().string(), *refused);
        return result;
    }
    result.ok = true;
    return result;
}

}  // namespace

compile_limits default_compile_limits() {
    compile_limits limits;
    const auto from_environment = [](const char* name, unsigned& value) {
        const char* text = std::getenv(name);
        if (!text || !*text) return;
        char* end = nullptr;
        const unsigned long number = std::strtoul(text, &end, 10);
        if (*end == '\0' && number > 0 && number < (1ul << 30)) {
            value = static_cast<unsigned>(number);
            return;
        }
        // Once a process: every compiler_settings reads these, and the warning was printed twice.
        static std::mutex warned_mutex;
        static std::set<std::string> warned;
        const std::lock_guard<std::mutex> lock(warned_mutex);
        if (warned.insert(fmt::format("{}={}", name, text)).second)
            spdlog::warn("{}='{}' is not a positive whole number; using {}", name, text, value);
    };
    from_environment("GPUJUDGE_COMPILE_CPU_LIMIT_S", limits.cpu_seconds);
    from_environment("GPUJUDGE_COMPILE_FILE_LIMIT_MB", limits.file_mib);
    from_environment("GPUJUDGE_COMPILE_MEMORY_LIMIT_MB", limits.memory_mib);
    from_environment("GPUJUDGE_COMPILE_WALL_LIMIT_S", limits.wall_seconds);
    from_environment("GPUJUDGE_COMPILE_OUTPUT_LIMIT_MB", limits.output_mib);
    from_environment("GPUJUDGE_COMPILE_LIBRARY_LIMIT_MB", limits.library_mib);
    return limits;
}

unsigned compiles_at_once(const compile_limits& limits) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const auto memory = physical_memory_bytes();
    if (!memory) return cores;
    const std::uintmax_t fit = *memory / (std::uintmax_t{limits.memory_mib} << 20);
    return static_cast<unsigned>(std::max<std::uintmax_t>(1, std::min<std::uintmax_t>(cores, fit)));
}

std::vector<std::string> supported_archs(const compiler_settings& settings) {
    command_result listed;
    try {
        listed = run_command({settings.nvcc, "--list-gpu-code"}, std::chrono::seconds(60));
    } catch (const std::runtime_error&) {
        return {};
    }
    if (listed.exit.code != 0 || listed.exit.signaled) return {};
    std::vector<std::string> archs;
    std::istringstream lines(listed.output);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("sm_", 0) == 0) archs.push_back(line);
    return archs;
}

std::filesystem::path default_cache_dir() {
    if (const char* dir = std::getenv("GPUJUDGE_CACHE_DIR"); dir && *dir) return dir;
    if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir) return std::filesystem::path(dir) / "gpujudge";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "gpujudge";
    return std::filesystem::temp_directory_path() / "gpujudge-cache";
}

std::string forced_header(const problem_spec& spec, const std::string& function) {
    std::string types;
    for (const auto& param : spec.params) types += (types.empty() ? "" : ", ") + param.c_type();
    // Declared with default visibility first: a solve defined hidden (an attribute, a pragma) is still
    // exported, where it would link here and then be missing when the runner loads the library.
    std::string declaration = spec.prototype(function);
    declaration.insert(std::string("extern \"C\" ").size(), "__attribute__((visibility(\"default\"))) ");
    return fmt::format(
        "// Generated by gpujudge from problem '{}': the signature every submission must define.\n"
        "{};\n"
        "static void (*const gpujudge_expected_{})({}) __attribute__((used)) = {};\n",
        spec.slug, declaration, function, types, function);
}

// A Python solution is "compiled" by the runner, which imports it (runner_program/python_host.hpp). Here
// it is copied into the cache under its content's hash, so that what runs is what was hashed, whatever
// happens to the learner's file meanwhile.
namespace {

// PEP 263: a comment on the first line, or on the second after a comment, that names an encoding
// other than UTF-8 (which leaves the bytes to be UTF-8).
bool declares_coding(const std::string& text) {
    static const std::regex coding(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
    static const std::regex utf8(R"(utf[-_]?8.*)", std::regex::icase);
    std::istringstream lines(text);
    std::string line;
    for (int n = 0; n < 2 && std::getline(lines, line); ++n) {
        std::smatch found;
        const std::string cut = regex_line(line);
        if (std::regex_search(cut, found, coding)) return !std::regex_match(found[1].str(), utf8);
        if (line.find_first_not_of(" \t\f\r") != std::string::npos &&
            line.find('#') != line.find_first_not_of(" \t\f\r"))
            return false;  // code on the first line: Python looks no further
    }
    return false;
}

// Why Python would not read `text`: it named the judge's copy of the file in its error, and no line.
std::optional<std::string> python_text_refused(const std::filesystem::path& source, const std::string& text) {
    if (const auto utf16 = utf16_source(source, text)) return utf16;
    if (text.find('\0') != std::string::npos)
        return fmt::format("{}: not a source file: it holds NUL bytes", source.string());
    const auto bad = first_non_utf8(text);
    if (!bad || declares_coding(text)) return std::nullopt;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*bad), '\n');
    return fmt::format(
        "{}:{}: the file is not UTF-8 (byte 0x{:02x}): save it as UTF-8, or declare its encoding "
        "on its first line (# -*- coding: latin-1 -*-)",
        source.string(), line, static_cast<unsigned char>(text[*bad]));
}

}  // namespace

compile_result stage_python(const std::filesystem::path& source, const compiler_settings& settings) {
    compile_result result;
    const auto dir = settings.cache_dir / "lib";
    std::filesystem::create_directories(dir);
    const auto text = read_file_text(source);
    if (text) result.source_hash = content_hash({*text});  // refused or not: which bytes were read
    const auto refused = text ? python_text_refused(source, *text) : cannot_read(source);
    if (refused) {
        result.diagnostics = *refused + "\n";
        result.source_refused = true;
        return result;
    }
    result.submission_hash = result.source_hash;  // a Python submission is one file
    result.library = dir / (result.source_hash + ".py");
    result.cached = std::filesystem::exists(result.library);
    if (!result.cached) write_file_atomically(result.library, *text);
    result.ok = true;
    result.compiled_from = source;
    return result;
}

namespace {

// nvcc as settings name it: a path is taken as it is; a name is found as every toolkit program is
// (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin), with its message when it is nowhere.
std::string nvcc_program(const compiler_settings& settings) {
    if (std::filesystem::path(settings.nvcc).has_parent_path()) return settings.nvcc;
    return find_toolkit_program(settings.nvcc).string();
}

}  // namespace

compile_result compile_solution(const problem_spec& spec, const std::filesystem::path& source,
                                const compiler_settings& settings) {
    if (is_python_source(source)) return stage_python(source, settings);
    // nvcc compiles the host code with the host compiler: both versions are in the key. `-x cu`: a
    // learner's .c, .cpp or .CU is CUDA too, not C with the judge's header in error or "don't know".
    return compile_cached(spec, source, "solve", {nvcc_program(settings), settings.host_compiler},
                          {"-x", "cu", "-O3", "-lineinfo", "-Xcompiler", "-fPIC", "-shared", "-arch=" + settings.arch,
                           "-Xlinker", "-z", "-Xlinker", "defs"},
                          settings);
}

compile_result compile_device_code(const problem_spec& spec, const std::filesystem::path& source, device_code kind,
                                   const compiler_settings& settings) {
    // Device code alone (-ptx, -cubin): the host compiler is not run, but nvcc's version is in the key.
    const bool ptx = kind == device_code::ptx;
    return compile_cached(spec, source, "solve", {nvcc_program(settings), settings.host_compiler},
                          {"-x", "cu", "-O3", "-lineinfo", "-arch=" + settings.arch, ptx ? "-ptx" : "-cubin"}, settings,
                          ptx ? ".ptx" : ".cubin");
}

compile_result compile_host(const problem_spec& spec, const std::filesystem::path& source, const std::string& function,
                            const compiler_settings& settings) {
    if (is_python_source(source)) return stage_python(source, settings);
    return compile_cached(spec, source, function, {settings.host_compiler},
                          {"-O2", "-std=c++17", "-fPIC", "-shared", "-x", "c++", "-Wl,-z,defs"}, settings);
}

}  // namespace gpujudge
