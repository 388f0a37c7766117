#include "calls/shared_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

namespace gpujudge {

shared_library::shared_library(const std::string& path) : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) throw library_error(fmt::format("cannot load {}: {}", path, dlerror()));
}

shared_library::~shared_library() {
    if (handle_) dlclose(handle_);
}

void* shared_library::symbol(const std::string& name) const {
    dlerror();
    void* address = dlsym(handle_, name.c_str());
    if (!address) throw library_error(fmt::format("the library does not define '{}'", name));
    return address;
}

}  // namespace gpujudge
