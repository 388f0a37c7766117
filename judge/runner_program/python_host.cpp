#include "runner_program/python_host.hpp"

#include "base/json_text.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <stdexcept>

namespace gpujudge {

extern const char* const kPythonBootstrap;  // python_bootstrap.py, compiled in (gpujudge_embed_text)

namespace {

// The few functions of CPython's stable ABI the runner calls, looked up in the opened libpython.
struct python_api {
    void (*initialize)(int);
    int (*run_string)(const char*, void*);
    void* (*add_module)(const char*);
    void* (*get_attr)(void*, const char*);
    void* (*call_function)(void*, const char*, ...);
    const char* (*utf8)(void*, long*);
    void (*decref)(void*);
    void (*print_error)();
    void* (*save_thread)();
    int (*gil_ensure)();
    void (*gil_release)(int);
};

template <typename F>
void find(void* library, const char* name, F& function) {
    function = reinterpret_cast<F>(dlsym(library, name));
    if (!function) throw std::runtime_error(fmt::format("libpython has no {}", name));
}

python_api api_of(void* library) {
    python_api api{};
    find(library, "Py_InitializeEx", api.initialize);
    find(library, "PyRun_SimpleStringFlags", api.run_string);
    find(library, "PyImport_AddModule", api.add_module);
    find(library, "PyObject_GetAttrString", api.get_attr);
    find(library, "PyObject_CallFunction", api.call_function);
    find(library, "PyUnicode_AsUTF8AndSize", api.utf8);
    find(library, "Py_DecRef", api.decref);
    find(library, "PyErr_Print", api.print_error);
    find(library, "PyEval_SaveThread", api.save_thread);
    find(library, "PyGILState_Ensure", api.gil_ensure);
    find(library, "PyGILState_Release", api.gil_release);
    return api;
}

nlohmann::json params_json(const problem_spec& spec) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& param : spec.params)
        params.push_back({{"name", param.name},
                          {"pointer", param.is_pointer},
                          {"type", to_string(param.type)},
                          {"integer", param.type == element_type::i32}});
    return params;
}

// Calls the bootstrap's function `name` with string arguments; its string result.
std::string call_bootstrap(const python_api& api, const char* name, const std::vector<std::string>& args) {
    void* function = api.get_attr(api.add_module("__main__"), name);
    if (!function) throw std::runtime_error(fmt::format("the Python bootstrap has no {}", name));
    void* result = nullptr;
    if (args.empty()) result = api.call_function(function, nullptr);
    if (args.size() == 1) result = api.call_function(function, "s", args[0].c_str());
    if (args.size() == 4)
        result =
            api.call_function(function, "ssss", args[0].c_str(), args[1].c_str(), args[2].c_str(), args[3].c_str());
    api.decref(function);
    if (!result) {
        api.print_error();
        throw std::runtime_error(fmt::format("the Python bootstrap's {} failed", name));
    }
    long size = 0;
    const char* text = api.utf8(result, &size);  // a str, or an error that must not stay pending
    if (!text) api.print_error();
    std::string value = text ? std::string(text, static_cast<std::size_t>(size)) : "";
    api.decref(result);
    if (!text) throw std::runtime_error(fmt::format("the Python bootstrap's {} returned no text", name));
    return value;
}

// One interpreter per process: its functions, once libpython is open.
python_api& api() {
    static python_api the_api{};
    return the_api;
}

// call_bootstrap from a thread that holds no GIL (the runner's, after the constructor).
std::string call_bootstrap_with_gil(const char* name, const std::vector<std::string>& args) {
    const int gil = api().gil_ensure();
    std::string answer;
    try {
        answer = call_bootstrap(api(), name, args);
    } catch (...) {
        api().gil_release(gil);
        throw;
    }
    api().gil_release(gil);
    return answer;
}

}  // namespace

python_host::python_host(const python_setup& setup) : shown_(setup.shown) {
    const std::filesystem::path triton_cache =
        setup.cache_dir.empty() ? std::filesystem::path() : std::filesystem::path(setup.cache_dir) / "triton";
    if (setup.sends_kernels && !triton_cache.empty()) kernels_sent_ = triton_cache;
    // RTLD_GLOBAL: extension modules (torch's) find the interpreter's symbols in it.
    library_ = dlopen(setup.library.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!library_) throw std::runtime_error(fmt::format("cannot load {}: {}", setup.library, dlerror()));
    api() = api_of(library_);
    // The standard library is the base installation's; sys.path then adds the environment's own.
    if (!setup.home.empty()) setenv("PYTHONHOME", setup.home.c_str(), 1);
    setenv("PYTHONNOUSERSITE", "1", 1);
    api().initialize(0);  // 0: the runner keeps its own signal handling
    if (api().run_string(kPythonBootstrap, nullptr) != 0) throw std::runtime_error("the Python bootstrap did not run");
    const nlohmann::json start = {
        {"path", setup.path},
        {"prepared", setup.prepared},
        {"kept_kernels", setup.kept_kernels},
        {"triton_cache", triton_cache.string()},
        {"imports", setup.imports_triton ? nlohmann::json{"torch", "triton"} : nlohmann::json{"torch"}}};
    call_bootstrap(api(), "_start", {json_text(start)});
    api().save_thread();  // the GIL is taken again by the imports' thread, each call (ctypes) and the load
}

std::variant<python_entry, std::string> python_host::load(const std::string& file, const problem_spec& spec,
                                                          const std::string& backend) {
    const std::string answer = call_bootstrap_with_gil("_load", {file, shown_, json_text(params_json(spec)), backend});
    if (answer.rfind("ok ", 0) == 0)
        return reinterpret_cast<python_entry>(std::strtoull(answer.c_str() + 3, nullptr, 10));
    return answer.rfind("rejected ", 0) == 0 ? answer.substr(9) : answer;
}

}  // namespace gpujudge
