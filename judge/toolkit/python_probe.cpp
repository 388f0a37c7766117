#include "toolkit/python_probe.hpp"

#include "base/file_text.hpp"
#include "base/json_text.hpp"
#include "base/regex_line.hpp"
#include "base/user_errors.hpp"
#include "process/child_process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

namespace gpujudge {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(python_install, executable, version, library, home, path, torch, triton)

namespace {

// Printed by the candidate Python as one JSON object; find_spec looks torch up without importing it.
constexpr const char* kProbe = R"(
import importlib.util, json, os, sys, sysconfig
def version(name):
    if importlib.util.find_spec(name) is None:
        return ""
    try:
        from importlib.metadata import version as installed
        return installed(name)
    except Exception:
        return "unknown"
libdir = sysconfig.get_config_var("LIBDIR") or ""
dirs = [libdir, os.path.join(libdir, sysconfig.get_config_var("MULTIARCH") or "")]
names = [sysconfig.get_config_var(n) or "" for n in ("INSTSONAME", "LDLIBRARY")]
found = [os.path.join(d, n) for n in names if ".so" in n for d in dirs if os.path.isfile(os.path.join(d, n))]
print(json.dumps({"executable": sys.executable, "version": sysconfig.get_python_version(),
                  "library": found[0] if found else "", "home": sys.base_prefix,
                  "path": [p for p in sys.path if p and p != "."], "torch": version("torch"),
                  "triton": version("triton")}))
)";

std::optional<python_install> probe(const std::string& python) {
    command_result result;
    try {
        // -I: the current folder (a learner's json.py) is not on sys.path, PYTHON* variables are
        // ignored: nothing of the learner's runs here, outside the sandbox.
        result = run_command({python, "-I", "-c", kProbe}, std::chrono::seconds(60));
    } catch (const std::runtime_error&) {
        return std::nullopt;  // not there
    }
    if (result.exit.timed_out || result.exit.signaled || result.exit.code != 0) return std::nullopt;
    try {
        const auto json = nlohmann::json::parse(result.output.substr(result.output.find('{')));
        python_install install;
        json.at("executable").get_to(install.executable);
        json.at("version").get_to(install.version);
        json.at("library").get_to(install.library);
        json.at("home").get_to(install.home);
        json.at("path").get_to(install.path);
        json.at("torch").get_to(install.torch);
        json.at("triton").get_to(install.triton);
        return install;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::vector<std::string> candidates() {
    if (const char* chosen = std::getenv("GPUJUDGE_PYTHON"); chosen && *chosen) return {chosen};
    std::vector<std::string> found;
    if (auto on_path = find_program("python3")) found.push_back(on_path->string());
    found.push_back("/usr/bin/python3");
    return found;
}

// What a probe's answer depends on, read without running Python: the interpreter's file (a new
// Python, another venv) and the modification times of the folders on its sys.path (installing,
// upgrading or removing a package adds or removes entries there).
nlohmann::json install_stamp(const std::string& name, const std::optional<python_install>& install) {
    std::error_code error;
    const auto real = std::filesystem::canonical(name, error);
    nlohmann::json stamp{{"name", name}, {"real", error ? "" : real.string()}};
    if (!error) {
        stamp["size"] = std::filesystem::file_size(real, error);
        stamp["mtime"] = std::filesystem::last_write_time(real, error).time_since_epoch().count();
    }
    if (install)
        for (const auto& dir : install->path)
            stamp["dirs"][dir] = std::filesystem::last_write_time(dir, error).time_since_epoch().count();
    return stamp;
}

// The probes that chose a Python (each candidate's stamp and install, or null), kept in the judge's
// cache: a Python submission then starts its runner without a probe (0.1 to 0.3 s of Python's start
// and package metadata), as long as every stamp still matches.
std::optional<python_install> recorded_choice(const std::filesystem::path& file,
                                              const std::vector<std::string>& names) {
    try {
        const auto json = nlohmann::json::parse(read_file_text(file).value_or(""));
        const auto& probes = json.at("probes");
        for (std::size_t i = 0; i < probes.size(); ++i) {
            const auto& install = probes[i].at("install");
            const std::optional<python_install> found =
                install.is_null() ? std::nullopt : std::optional<python_install>(install.get<python_install>());
            if (i >= names.size() || probes[i].at("stamp") != install_stamp(names[i], found)) return std::nullopt;
            if (found && !found->torch.empty()) return found;
        }
    } catch (const std::exception&) {  // none kept, or another judge's half-written file
    }
    return std::nullopt;
}

// Best effort: a cache that cannot be written only means probing again next time.
void record_choice(const std::filesystem::path& file, const nlohmann::json& probes) {
    try {
        std::filesystem::create_directories(file.parent_path());
        write_file_atomically(file, json_text(nlohmann::json{{"probes", probes}}) + "\n");
    } catch (const std::exception&) {
    }
}

// Why no candidate ran as a Python at all: it is not there, or it is no Python (GPUJUDGE_PYTHON
// naming a folder, a typo).
std::string no_python(const std::string& name) {
    const char* chosen = std::getenv("GPUJUDGE_PYTHON");
    std::error_code error;
    const bool there = std::filesystem::path(name).has_parent_path() ? std::filesystem::exists(name, error)
                                                                     : find_program(name).has_value();
    return fmt::format("{}{} {}: set GPUJUDGE_PYTHON to a python3 that has torch (Debian: python3-torch)",
                       chosen && *chosen ? "GPUJUDGE_PYTHON: " : "", name,
                       there ? "cannot be run as a Python" : "does not exist");
}

python_install chosen_python(const std::filesystem::path& cache_dir) {
    const auto names = candidates();
    const auto record_file = cache_dir.empty() ? cache_dir : cache_dir / "python-probe.json";
    if (!record_file.empty())
        if (auto kept = recorded_choice(record_file, names)) return *kept;
    nlohmann::json probes = nlohmann::json::array();
    std::optional<python_install> first;
    for (const auto& name : names) {
        auto install = probe(name);
        probes.push_back({{"stamp", install_stamp(name, install)},
                          {"install", install ? nlohmann::json(*install) : nlohmann::json()}});
        if (!first && install) first = install;
        if (install && !install->torch.empty()) {
            if (install->library.empty())
                throw environment_error(fmt::format(
                    "{} (Python {}) has no shared libpython, which the runner embeds to call solve: use a Python "
                    "built with --enable-shared (Debian: libpython3-dev), or set GPUJUDGE_PYTHON to one",
                    install->executable, install->version));
            if (!record_file.empty()) record_choice(record_file, probes);
            return *install;
        }
    }
    if (!first) throw environment_error(no_python(names.front()));
    throw environment_error(fmt::format(
        "{} (Python {}) has no torch, which Python solutions need: install PyTorch for it (Debian: python3-torch; "
        "pip install torch), or set GPUJUDGE_PYTHON to a python3 that has it",
        first->executable, first->version));
}

}  // namespace

const python_install& find_python(const std::filesystem::path& cache_dir) {
    static std::mutex mutex;
    static std::optional<python_install> found;
    std::lock_guard<std::mutex> lock(mutex);
    if (!found) found = chosen_python(cache_dir);
    return *found;
}

bool is_python_source(const std::filesystem::path& source) {
    return source.extension() == ".py";
}

namespace {

// Whether a line of the file matches `pattern`, each read through regex_line: the file is the learner's.
// Lines a backslash continues are one (`torch \` then `.compile(f)`), as Python reads them.
bool any_line_matches(const std::filesystem::path& source, const std::regex& pattern) {
    std::string text = read_file_text(source).value_or("");
    for (std::size_t at = 0; (at = text.find("\\\n", at)) != std::string::npos;) text.erase(at, 2);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (std::regex_search(regex_line(line), pattern)) return true;
    return false;
}

}  // namespace

bool imports_triton(const std::filesystem::path& source) {
    static const std::regex import(R"(^[ \t]*(import|from)[ \t]+triton\b)");
    return any_line_matches(source, import);
}

bool compiles_on_first_call(const std::filesystem::path& source) {
    static const std::regex compiles(
        R"(torch\s*\.\s*(compile|jit)\b|_dynamo|\binductor\b|\bload_inline\b|\bcpp_extension\b|\bfrom\s+torch\s+import\s+compile\b)");
    return imports_triton(source) || any_line_matches(source, compiles);
}

void require_python_for(const std::filesystem::path& source, const python_install& python) {
    if (imports_triton(source) && python.triton.empty())
        throw environment_error(fmt::format(
            "{} imports triton, which {} (Python {}) does not have: install it (pip install triton; it needs an "
            "NVIDIA GPU), or set GPUJUDGE_PYTHON to a python3 that has it",
            source.string(), python.executable, python.version));
}

}  // namespace gpujudge
